import { getTranslations } from "@/app/site-render/_site/translations";
import { translator } from "@/lib/i18n/translator";
import { typeLabel } from "@/lib/listings/view/type-label";
import type { SiteView } from "../context";

export type PropertyTypeOption = { id: string; label: string };

/** The tenant's property types, each with its label in the page's language. */
export async function propertyTypeOptions(site: SiteView): Promise<PropertyTypeOption[]> {
  const t = translator(site.locale);
  const types = site.config.tenantConfig.propertyTypes;
  return types.map((p) => ({ id: p.id, label: typeLabel(p.id, site.locale, t, types) }));
}

/**
 * The business (sale or rental) and property-type selects of the site's two search forms: the
 * hero's search bar and the catalogue's filters. `type` and `propertyType` are the chosen values.
 */
export async function TypeSelects({ types, type, propertyType }: { types: PropertyTypeOption[]; type?: string; propertyType?: string }) {
  const t = await getTranslations("search");
  const tb = await getTranslations("business");
  const tp = await getTranslations("propertyType");
  return (
    <>
      <label>
        {t("type")}
        <select name="type" defaultValue={type ?? ""}>
          <option value="">{tb("any")}</option>
          <option value="sale">{tb("sale")}</option>
          <option value="rental">{tb("rental")}</option>
        </select>
      </label>
      <label>
        {t("propertyType")}
        <select name="propertyType" defaultValue={propertyType ?? ""}>
          <option value="">{tp("any")}</option>
          {types.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
