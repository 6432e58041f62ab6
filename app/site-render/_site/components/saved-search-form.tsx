import type { SiteView } from "../context";
import { href, localPath } from "../links";
import { stateParams, type CatalogueState, type PlaceFilter } from "@/lib/sites/render/catalogue-query";
import { alertTexts } from "@/lib/saved-searches/texts";

/**
 * "Avise-me": a plain HTML form (no JavaScript) posting the catalogue's current filters, with the
 * location page's place, to the site's `/alertas`; the outcome comes back as `?alerta=` on the
 * page. The channel's field is chosen by the visitor: e-mail, or a WhatsApp number.
 */
export function SavedSearchForm({
  site,
  path,
  state,
  place,
  outcome,
}: {
  site: SiteView;
  path: string;
  state: CatalogueState;
  place: PlaceFilter;
  outcome?: string;
}) {
  const t = alertTexts(site.locale);
  const filters = stateParams({ ...state, sort: "newest", page: 1, city: place.city ?? state.city, neighborhood: place.neighborhood ?? state.neighborhood });
  const query = new URLSearchParams(Object.entries(stateParams(state)).filter((e): e is [string, string] => Boolean(e[1]))).toString();
  return (
    <section className="filters saved-search" id="avise-me" aria-labelledby="avise-me-title" style={{ marginTop: 16 }}>
      <h2 id="avise-me-title" style={{ fontSize: "1.1rem", margin: 0 }}>
        {t("formTitle")}
      </h2>
      <p className="muted" style={{ margin: 0, fontSize: ".9rem" }}>
        {t("formIntro")}
      </p>
      {outcome === "sent" && (
        <p className="notice" role="status">
          {t("sent")}
        </p>
      )}
      {outcome && outcome !== "sent" && (
        <p className="notice err" role="alert">
          {t(outcome === "limited" ? "limited" : outcome === "unavailable" ? "unavailable" : "invalid")}
        </p>
      )}
      <form method="post" action={href(site, "/alertas")} style={{ display: "grid", gap: 10 }}>
        <input type="hidden" name="landingPage" value={localPath(site, query ? `${path}?${query}` : path)} />
        {Object.entries(filters).map(([k, v]) => (v ? <input key={k} type="hidden" name={k} value={v} /> : null))}
        <label>
          {t("name")}
          <input name="name" autoComplete="name" maxLength={120} />
        </label>
        <fieldset className="choices">
          <legend>{t("channel")}</legend>
          <label className="choice">
            <input type="radio" name="channel" value="email" defaultChecked />
            <span>{t("channelEmail")}</span>
          </label>
          <label className="choice">
            <input type="radio" name="channel" value="whatsapp" />
            <span>{t("channelWhatsapp")}</span>
          </label>
        </fieldset>
        <label>
          {t("email")}
          <input name="email" type="email" autoComplete="email" maxLength={254} />
        </label>
        <label>
          {t("phone")}
          <input name="phone" type="tel" autoComplete="tel" maxLength={40} placeholder="+55 11 98765-4321" />
        </label>
        <label>
          {t("frequency")}
          <select name="frequency" defaultValue="instant">
            <option value="instant">{t("instant")}</option>
            <option value="daily">{t("daily")}</option>
          </select>
        </label>
        <label className="choice consent">
          <input type="checkbox" name="consent" value="yes" required />
          <span>{t("consent")}</span>
        </label>
        <button className="btn" type="submit">
          {t("submit")}
        </button>
      </form>
    </section>
  );
}
