import { formatMoney, formatNumber } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Translator } from "@/lib/i18n/translator";
import { financingFromQuery, simulateFinancing } from "@/lib/sites/render/financing";

/**
 * The financing simulator of a sale listing: a GET form to the page itself (`action`), computed on
 * the server (works without JavaScript), SAC and Price side by side. Sites and share pages alike;
 * `keep` are other query parameters of the page the form must not lose.
 */
export function FinancingSimulator({
  price,
  action,
  query,
  locale,
  t,
  keep = [],
}: {
  price: number;
  action: string;
  query: Record<string, string | string[] | undefined>;
  locale: Locale;
  t: Translator;
  keep?: [string, string][];
}) {
  const input = financingFromQuery(price, query);
  const r = simulateFinancing(input);
  const m = (v: number) => formatMoney(locale, v, true);
  return (
    <section className="box sim" id="simulador" aria-labelledby="sim-title">
      <h2 id="sim-title">{t("finance.title")}</h2>
      <form method="get" action={`${action}#simulador`} className="form">
        {/* A GET form drops its action's query: what the page keeps travels as hidden fields. */}
        {keep.map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <div className="row">
          <label>
            {t("finance.downPayment")}
            <input name="entrada" inputMode="numeric" defaultValue={String(Math.round(input.downPayment))} />
          </label>
          <label>
            {t("finance.rate")}
            <input name="juros" inputMode="decimal" defaultValue={formatNumber("en", input.annualRatePercent, 2)} />
          </label>
          <label>
            {t("finance.years")}
            <input name="prazo" inputMode="numeric" defaultValue={String(input.years)} />
          </label>
        </div>
        <button className="btn secondary" type="submit">
          {t("finance.simulate")}
        </button>
      </form>
      {r ? (
        <table>
          <caption className="sr-only">{t("finance.title")}</caption>
          <tbody>
            <tr>
              <th scope="row">{t("finance.financed")}</th>
              <td colSpan={2}>{m(r.financed)}</td>
            </tr>
            <tr>
              <td></td>
              <th scope="col">{t("finance.sac")}</th>
              <th scope="col">{t("finance.price")}</th>
            </tr>
            <tr>
              <th scope="row">{t("finance.first")}</th>
              <td>{m(r.sac.first)}</td>
              <td>{m(r.price.monthly)}</td>
            </tr>
            <tr>
              <th scope="row">{t("finance.last")}</th>
              <td>{m(r.sac.last)}</td>
              <td>{m(r.price.monthly)}</td>
            </tr>
            <tr>
              <th scope="row">{t("finance.totalPaid")}</th>
              <td>{m(r.sac.total)}</td>
              <td>{m(r.price.total)}</td>
            </tr>
          </tbody>
        </table>
      ) : (
        <p className="notice err" role="alert">
          {t("finance.invalid")}
        </p>
      )}
      <p className="muted small">{t("finance.note")}</p>
    </section>
  );
}
