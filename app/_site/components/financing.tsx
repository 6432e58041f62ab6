import { getTranslations } from "@/app/_site/translations";
import type { SiteView } from "../context";
import { formatMoney, formatNumber } from "../format";
import { href } from "../links";
import { financingFromQuery, simulateFinancing } from "@/lib/sites/render/financing";

/**
 * The financing simulator of a sale listing: a GET form on the page itself, computed on the
 * server (works without JavaScript), SAC and Price side by side.
 */
export async function FinancingSimulator({ site, price, path, query }: { site: SiteView; price: number; path: string; query: Record<string, string | string[] | undefined> }) {
  const t = await getTranslations("finance");
  const input = financingFromQuery(price, query);
  const r = simulateFinancing(input);
  const m = (v: number) => formatMoney(site.locale, v, true);
  return (
    <section className="box sim" id="simulador" aria-labelledby="sim-title">
      <h2 id="sim-title">{t("title")}</h2>
      <form method="get" action={`${href(site, path)}#simulador`} className="form">
        <div className="row">
          <label>
            {t("downPayment")}
            <input name="entrada" inputMode="numeric" defaultValue={String(Math.round(input.downPayment))} />
          </label>
          <label>
            {t("rate")}
            <input name="juros" inputMode="decimal" defaultValue={formatNumber("en", input.annualRatePercent, 2)} />
          </label>
          <label>
            {t("years")}
            <input name="prazo" inputMode="numeric" defaultValue={String(input.years)} />
          </label>
        </div>
        <button className="btn secondary" type="submit">{t("simulate")}</button>
      </form>
      {r ? (
        <table>
          <caption className="sr-only">{t("title")}</caption>
          <tbody>
            <tr><th scope="row">{t("financed")}</th><td colSpan={2}>{m(r.financed)}</td></tr>
            <tr><td></td><th scope="col">{t("sac")}</th><th scope="col">{t("price")}</th></tr>
            <tr><th scope="row">{t("first")}</th><td>{m(r.sac.first)}</td><td>{m(r.price.monthly)}</td></tr>
            <tr><th scope="row">{t("last")}</th><td>{m(r.sac.last)}</td><td>{m(r.price.monthly)}</td></tr>
            <tr><th scope="row">{t("totalPaid")}</th><td>{m(r.sac.total)}</td><td>{m(r.price.total)}</td></tr>
          </tbody>
        </table>
      ) : (
        <p className="notice err" role="alert">{t("invalid")}</p>
      )}
      <p className="muted" style={{ fontSize: ".85rem" }}>{t("note")}</p>
    </section>
  );
}
