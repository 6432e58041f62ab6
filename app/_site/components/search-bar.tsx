import { getTranslations } from "next-intl/server";
import type { SiteView } from "../context";
import { href } from "../links";
import { typeLabel } from "./listing-card";

/** The hero's search: a GET form to the catalogue (no JavaScript needed). */
export async function SearchBar({ site }: { site: SiteView }) {
  const t = await getTranslations("search");
  const tb = await getTranslations("business");
  const tp = await getTranslations("propertyType");
  const types = await Promise.all(site.config.tenantConfig.propertyTypes.map(async (p) => ({ id: p.id, label: await typeLabel(site, p.id) })));
  return (
    <form className="searchbar" method="get" action={href(site, "/imoveis")} role="search">
      <label>
        {t("type")}
        <select name="type" defaultValue="">
          <option value="">{tb("any")}</option>
          <option value="sale">{tb("sale")}</option>
          <option value="rental">{tb("rental")}</option>
        </select>
      </label>
      <label>
        {t("propertyType")}
        <select name="propertyType" defaultValue="">
          <option value="">{tp("any")}</option>
          {types.map((p) => (
            <option key={p.id} value={p.id}>{p.label}</option>
          ))}
        </select>
      </label>
      <label className="grow">
        {t("keywords")}
        <input name="q" type="search" placeholder={t("placeholder")} />
      </label>
      <button className="btn" type="submit">{t("submit")}</button>
    </form>
  );
}
