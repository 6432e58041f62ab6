import type { SiteView } from "./context";
import { translatedFields } from "@/lib/sites/view/translated-fields";

/**
 * Extra Puck pages of a site besides the home page (`puck_data`): `configuration.otherConfigs.pages`,
 * a list of `{ id, path, title, description, data }` where `data` is Puck data. A page is served
 * at its `path` (one segment, such as `/sobre`); a CMS collection's `templatePageId` names one of
 * them as the template its entries are shown with. `title_en`, `description_es`... translate them.
 */
export type ExtraPage = { id: string; path: string; title: string; description: string; data: unknown };

export function extraPages(site: SiteView): ExtraPage[] {
  const raw = (site.config.configuration.otherConfigs as Record<string, unknown> | null)?.pages;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((p) => {
    if (!p || typeof p !== "object") return [];
    const x = translatedFields(p as Record<string, unknown>, site.locale);
    if (typeof x.id !== "string" || typeof x.path !== "string") return [];
    return [
      {
        id: x.id,
        path: x.path,
        title: typeof x.title === "string" ? x.title : "",
        description: typeof x.description === "string" ? x.description : "",
        data: x.data,
      },
    ];
  });
}
