import { getTranslations } from "@/app/_site/translations";
import type { SiteView } from "../context";
import { typeLabel } from "./listing-card";

export type PropertyTypeOption = { id: string; label: string };

/** The tenant's property types, each with its label in the page's language. */
export function propertyTypeOptions(site: SiteView): Promise<PropertyTypeOption[]> {
  return Promise.all(site.config.tenantConfig.propertyTypes.map(async (p) => ({ id: p.id, label: await typeLabel(site, p.id) })));
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
            <option key={p.id} value={p.id}>{p.label}</option>
          ))}
        </select>
      </label>
    </>
  );
}
