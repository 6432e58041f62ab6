import { getTranslations } from "@/app/site-render/_site/translations";
import type { SiteView } from "../context";
import { href } from "../links";
import { propertyTypeOptions, TypeSelects } from "./search-fields";

/** The hero's search: a GET form to the catalogue (no JavaScript needed). */
export async function SearchBar({ site }: { site: SiteView }) {
  const t = await getTranslations("search");
  const types = await propertyTypeOptions(site);
  return (
    <search>
      <form className="searchbar" method="get" action={href(site, "/imoveis")}>
        <TypeSelects types={types} />
        <label className="grow">
          {t("keywords")}
          <input name="q" type="search" placeholder={t("placeholder")} />
        </label>
        <button className="btn" type="submit">
          {t("submit")}
        </button>
      </form>
    </search>
  );
}
