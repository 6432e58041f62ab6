import { sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import type { SiteRow } from "../../db/schema";
import { FILTER_SCHEMA } from "../search/fields";
import { compileFilter } from "../search/filter";
import { scopeSql } from "../search/postgres/scope-sql";
import { siteCatalogue } from "./site-catalogue";
import { processGlobal } from "../util/process-global";

/**
 * Location pages of a site (spec 2 §2.7): states, cities, neighborhoods and streets of the
 * listings the site's search shows (same scope and criteria), each with a URL slug and a count.
 * Read with one aggregate over the narrow search table (maintained in every engine mode) and kept
 * 30 seconds per site: location menus change slowly and the endpoint is the most expensive one.
 */

export const LocationsQuery = z.strictObject({
  segment: z.string().max(200, "must be at most 200 characters (one URL segment)").optional(),
});
export const ValidateQuery = z.strictObject({
  path: z.string().max(1000, "must be at most 1000 characters").optional(),
  baseRoute: z
    .string()
    .max(60)
    .regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/, "must be URL segments of lowercase letters, digits and dashes, such as imoveis")
    .default("imoveis"),
});

const LEVELS = ["state", "city", "neighborhood", "street"] as const;
type Level = (typeof LEVELS)[number];
const LocationEntry = z.object({ slug: z.string(), name: z.string(), count: z.number() });
type Entry = z.infer<typeof LocationEntry>;
const LocationMap = z.record(z.string(), LocationEntry);
const CrumbSchema = z.object({ slug: z.string(), name: z.string(), type: z.enum(LEVELS), path: z.string() });

/** The answer of `siteLocations`: every level, or which level a segment names. */
export const SiteLocationsSchema = z.union([
  z.object({ states: LocationMap, cities: LocationMap, neighborhoods: LocationMap, streets: LocationMap }),
  z.object({ segment: z.string(), match: z.object({ type: z.string(), value: z.string() }).nullable() }),
]);

/** The answer of `validateLocationPath`. */
export const LocationValidationSchema = z.object({
  valid: z.boolean(),
  error: z.string().optional(),
  message: z.string().optional(),
  matches: z.object({ state: z.string().nullable(), city: z.string().nullable(), neighborhood: z.string().nullable() }),
  breadcrumb: z.array(CrumbSchema),
});
type Matches = z.infer<typeof LocationValidationSchema>["matches"];
type Row = { state: string | null; city: string | null; neighborhood: string | null; street: string | null; n: number };
type Index = {
  rows: (Row & { s: string; c: string; nb: string; st: string })[];
  maps: Record<"states" | "cities" | "neighborhoods" | "streets", Record<string, Entry>>;
};

/** `São Paulo` -> `sao-paulo`: accents folded, lowercase, anything else a single dash. */
export function slugify(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

const TTL_MS = 30_000;
const cache = processGlobal("site-locations", () => new LRUCache<string, Index>({ max: 500, ttl: TTL_MS }));

async function locationIndex(db: DbOrTx, site: SiteRow): Promise<Index> {
  const key = `${site.id}:${site.updatedAt.getTime()}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const { scope, criteria } = await siteCatalogue(db, site);
  const where = [scopeSql(scope), ...criteria.map((c) => compileFilter(c, FILTER_SCHEMA))];
  const res = await db.execute(sql`
    select d.location_state as state, d.location_city as city, d.location_neighborhood as neighborhood, d.location_street as street, count(*)::int as n
    from search_documents d where ${sql.join(where, sql` AND `)}
    group by 1, 2, 3, 4`);
  const maps: Index["maps"] = { states: {}, cities: {}, neighborhoods: {}, streets: {} };
  const add = (m: Record<string, Entry>, name: string | null, n: number) => {
    const slug = name ? slugify(name) : "";
    if (!slug) return "";
    const e = (m[slug] ??= { slug, name: name!, count: 0 });
    e.count += n;
    return slug;
  };
  const rows = rowsOf<Row>(res).map((r) => {
    const n = Number(r.n);
    return {
      ...r,
      n,
      s: add(maps.states, r.state, n),
      c: add(maps.cities, r.city, n),
      nb: add(maps.neighborhoods, r.neighborhood, n),
      st: add(maps.streets, r.street, n),
    };
  });
  const built = { rows, maps };
  cache.set(key, built);
  return built;
}

/** `GET /locations`: every level, or with `segment` which level and name a URL segment is. */
export async function siteLocations(db: DbOrTx, site: SiteRow, q: z.infer<typeof LocationsQuery>): Promise<z.infer<typeof SiteLocationsSchema>> {
  const { maps } = await locationIndex(db, site);
  if (q.segment === undefined) return maps;
  const slug = slugify(q.segment);
  const order: [Level, Record<string, Entry>][] = [
    ["state", maps.states],
    ["city", maps.cities],
    ["neighborhood", maps.neighborhoods],
    ["street", maps.streets],
  ];
  const found = order.find(([, m]) => slug && m[slug]);
  return { segment: q.segment, match: found ? { type: found[0], value: found[1][slug].name } : null };
}

type Crumb = z.infer<typeof CrumbSchema>;

const invalidResult = (error: string, message: string, matches: Matches, breadcrumb: Crumb[]) =>
  ({ valid: false, error, message, matches, breadcrumb }) satisfies z.infer<typeof LocationValidationSchema>;

/**
 * `GET /locations/validate?path=sp/sao-paulo/pinheiros`: whether a location page exists, with its
 * breadcrumb. Invalid paths are 200 with `valid: false`, an `error` code of §7 and a message.
 */
export async function validateLocationPath(db: DbOrTx, site: SiteRow, q: z.infer<typeof ValidateQuery>) {
  const matches: Matches = { state: null, city: null, neighborhood: null };
  if (q.path === undefined) return invalidResult("missing_path", "Send the location path, such as sp/sao-paulo/pinheiros.", matches, []);
  const parts = q.path
    .split("/")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!parts.length) return invalidResult("empty_path", "The location path is empty.", matches, []);
  if (parts.length > 4) return invalidResult("path_too_deep", "A location path has at most 4 levels: state, city, neighborhood, street.", matches, []);
  const { rows } = await locationIndex(db, site);
  const [s, c, nb, st] = parts.map(slugify);
  const crumbs: Crumb[] = [];
  const crumb = (slug: string, name: string, type: Level) =>
    crumbs.push({ slug, name, type, path: `/${q.baseRoute}/${[...crumbs.map((x) => x.slug), slug].join("/")}` });

  const inState = rows.filter((r) => r.s === s);
  if (!inState.length) return invalidResult("state_not_found", `No listings in a state '${parts[0]}'.`, matches, crumbs);
  matches.state = inState[0].state;
  crumb(s, inState[0].state!, "state");
  if (c === undefined) return ok(matches, crumbs);
  const inCity = inState.filter((r) => r.c === c);
  if (!inCity.length) return invalidResult("city_not_in_state", `No city '${parts[1]}' in ${inState[0].state}.`, matches, crumbs);
  matches.city = inCity[0].city;
  crumb(c, inCity[0].city!, "city");
  if (nb === undefined) return ok(matches, crumbs);
  const inNeighborhood = inCity.filter((r) => r.nb === nb);
  if (!inNeighborhood.length) return invalidResult("neighborhood_not_in_city", `No neighborhood '${parts[2]}' in ${inCity[0].city}.`, matches, crumbs);
  matches.neighborhood = inNeighborhood[0].neighborhood;
  crumb(nb, inNeighborhood[0].neighborhood!, "neighborhood");
  if (st === undefined) return ok(matches, crumbs);
  const onStreet = inNeighborhood.filter((r) => r.st === st);
  if (!onStreet.length) return invalidResult("no_listings", `No listings on '${parts[3]}' in ${inNeighborhood[0].neighborhood}.`, matches, crumbs);
  crumb(st, onStreet[0].street!, "street");
  return ok(matches, crumbs);
}

const ok = (matches: Matches, breadcrumb: Crumb[]) => ({ valid: true, matches, breadcrumb }) satisfies z.infer<typeof LocationValidationSchema>;

/**
 * Every valid location page of a site as URL paths under `baseRoute` (`imoveis/sp`,
 * `imoveis/sp/sao-paulo`, ...), with its listing count: what the sitemap lists. The same index
 * (and so the same scope and criteria) as `validateLocationPath`.
 */
export async function siteLocationPaths(db: DbOrTx, site: SiteRow, baseRoute = "imoveis"): Promise<{ path: string; count: number }[]> {
  const { rows } = await locationIndex(db, site);
  const out = new Map<string, number>();
  for (const r of rows) {
    const parts = [r.s, r.c, r.nb, r.st];
    for (let depth = 1; depth <= 4; depth++) {
      const seg = parts.slice(0, depth);
      if (seg.some((x) => !x)) break;
      const path = `/${baseRoute}/${seg.join("/")}`;
      out.set(path, (out.get(path) ?? 0) + r.n);
    }
  }
  return [...out].map(([path, count]) => ({ path, count })).sort((a, b) => a.path.localeCompare(b.path));
}
