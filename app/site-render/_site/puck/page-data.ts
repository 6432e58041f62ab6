import { logger } from "@/lib/log/logger";
import type { Data } from "@puckeditor/core";
import type { SiteLocale } from "@/lib/sites/render/host-routing";
import { translatedFields } from "@/lib/sites/view/translated-fields";

type Item = { type: string; props: Record<string, unknown> };

/**
 * `puck_data` made safe to render: only components our config knows (an unknown type is logged
 * and left out, never a 500), props always an object with an id, legacy `zones` kept as they are,
 * text props in the page's language where the tenant translated them (`title_en`, `subtitle_es`...).
 */
export function renderablePage(
  raw: unknown,
  known: ReadonlySet<string>,
  where: { siteId: string; page: string; locale: SiteLocale },
): { data: Data; firstId: string | null } {
  const d = (raw && typeof raw === "object" ? raw : {}) as { root?: unknown; content?: unknown; zones?: unknown };
  const unknown = new Set<string>();
  const clean = (list: unknown): Item[] =>
    (Array.isArray(list) ? list : []).flatMap((x, i) => {
      const item = x as Partial<Item> | null;
      if (!item || typeof item !== "object" || typeof item.type !== "string") return [];
      if (!known.has(item.type)) {
        unknown.add(item.type.slice(0, 100));
        return [];
      }
      const props = item.props && typeof item.props === "object" && !Array.isArray(item.props) ? item.props : {};
      return [{ type: item.type, props: { ...translatedFields(props, where.locale), id: typeof props.id === "string" ? props.id : `${item.type}-${i}` } }];
    });
  const content = clean(d.content);
  const zones: Record<string, Item[]> = {};
  if (d.zones && typeof d.zones === "object") for (const [k, v] of Object.entries(d.zones as Record<string, unknown>)) zones[k] = clean(v);
  if (unknown.size)
    logger().warn({ site: where.siteId, page: where.page, types: [...unknown] }, "puck_data has component types this site cannot render; left out");
  const root = d.root && typeof d.root === "object" ? (d.root as Record<string, unknown>) : {};
  const rootProps = root.props && typeof root.props === "object" ? translatedFields(root.props as Record<string, unknown>, where.locale) : {};
  return { data: { root: { props: rootProps }, content, zones } as unknown as Data, firstId: (content[0]?.props.id as string) ?? null };
}
