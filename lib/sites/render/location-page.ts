import type { DbOrTx } from "../../../db/client";
import type { SiteRow } from "../../../db/schema";
import { validateLocationPath } from "../locations";
import type { PlaceFilter } from "./catalogue-query";
import { decodeSegment } from "./host-routing";

export type Crumb = { slug: string; name: string; type: string; path: string };

/**
 * The place of a location page (`/imoveis/{state}/{city}/{neighborhood}/{street}`, as path
 * segments), validated by the sites' locations logic; null when it names no place of the site, or
 * not in its canonical spelling (`/imoveis/SP` is not `/imoveis/sp`). The page and the proxy's
 * check before rendering (page-check.ts) both ask it.
 */
export async function locationPageOf(db: DbOrTx, site: SiteRow, segments: string[]): Promise<{ place: PlaceFilter; crumbs: Crumb[] } | null> {
  if (!segments.length) return { place: {}, crumbs: [] };
  const v = await validateLocationPath(db, site, { path: segments.map(decodeSegment).join("/"), baseRoute: "imoveis" });
  if (!v.valid) return null;
  const crumbs = v.breadcrumb as Crumb[];
  if (crumbs.map((c) => c.slug).join("/") !== segments.join("/")) return null;
  const street = crumbs.find((c) => c.type === "street")?.name ?? null;
  return { place: { ...v.matches, street }, crumbs };
}

/** The location segments of a catalogue address (`/imoveis/sp/sao-paulo` -> `["sp", "sao-paulo"]`); null for other pages. */
export function locationSegmentsOf(rest: string): string[] | null {
  const m = /^\/imoveis(?:\/(.*))?$/.exec(rest);
  if (!m) return null;
  return (m[1] ?? "").split("/").filter(Boolean);
}
