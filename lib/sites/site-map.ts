import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import type { SiteRow } from "../../db/schema";
import { toSearchRequest } from "../search/params";
import { priceMaskOf } from "../search/price-visibility";
import { priceHiddenSql, userFilterSql } from "../search/postgres/price-sql";
import { scopeSql } from "../search/postgres/scope-sql";
import { textQuery } from "../search/postgres/text-sql";
import { cellSize, parseMapView } from "./map-view";
import { MAX_PUBLIC_PER_PAGE } from "./public-search";
import { PUBLIC_FILTER_SCHEMA, PUBLIC_SEARCH_FIELDS, SITE_DEFAULT_QUERY_BY } from "./public-fields";
import { siteCatalogue } from "./site-catalogue";

/** A cell holding at most this many listings answers them as pins; a fuller one is a cluster. */
export const MAX_PINS_PER_CELL = 4;

/** The query of `GET /api/sites/{siteId}/map`: the view, plus the search's `q`, `query_by` and `filter_by`. */
export const SiteMapQuery = z.strictObject({
  bbox: z
    .string()
    .max(200)
    .optional()
    .meta({ description: "`west,south,east,north` in degrees; west < east, south < north.", example: "-46.75,-23.65,-46.55,-23.5" }),
  zoom: z.string().max(3).optional().meta({ description: "The map's zoom level, an integer from 0 to 22.", example: "13" }),
  q: z.string().max(500).optional().meta({ description: "Words to find, as in the search; default everything." }),
  query_by: z.string().max(500).optional().meta({ description: "Comma-separated public text fields, as in the search." }),
  filter_by: z
    .string()
    .max(4000)
    .optional()
    .meta({ description: "The search's filter language over public fields.", example: "bedrooms:>=2 && price:<1000000" }),
});

const Box = z.object({ west: z.number(), south: z.number(), east: z.number(), north: z.number() });
export const SiteMapSchema = z
  .object({
    clusters: z.array(z.object({ lat: z.number(), lng: z.number(), count: z.number(), bbox: Box })),
    pins: z.array(z.object({ id: z.string(), lat: z.number(), lng: z.number(), price: z.number().nullable(), type: z.string().nullable() })),
    total: z.number().meta({ description: "Listings with a point in the box: the clusters' counts plus the pins." }),
  })
  .meta({ id: "SiteMap" });
export type SiteMap = z.infer<typeof SiteMapSchema>;

type Row = {
  id: string | null;
  lat: number | string;
  lng: number | string;
  n: number | string;
  s: number | string;
  w: number | string;
  nn: number | string;
  e: number | string;
  price: number | string | null;
  type: string | null;
};

/** The public point: 3 decimals (about 100 m), exactly as the public document rounds it (`Math.round`). */
const rounded = (col: string) => sql.raw(`(floor(d.${col} * 1000 + 0.5) / 1000)`);
const r5 = (v: number) => Math.round(v * 100_000) / 100_000;

/**
 * `GET /api/sites/{siteId}/map`: the site's catalogue (same scope, criteria and filter language as
 * its search) in a box, gridded by zoom in one SQL pass. Everything, the box test included, reads
 * the public point rounded to 3 decimals, never the stored one: otherwise moving a box edge by tiny
 * steps would reveal on which side of it the exact point lies. Cells with few listings answer
 * their pins (public fields: id, point, price unless private, type); fuller ones a cluster with
 * its count, mean point and the box of its points.
 */
export async function siteMap(db: DbOrTx, site: SiteRow, input: z.infer<typeof SiteMapQuery>): Promise<SiteMap> {
  const view = parseMapView(input.bbox, input.zoom);
  const { scope, criteria } = await siteCatalogue(db, site);
  const req = toSearchRequest(
    { q: input.q ?? "*", query_by: input.query_by, filter_by: input.filter_by, per_page: 0 },
    {
      maxPerPage: MAX_PUBLIC_PER_PAGE,
      defaultQueryBy: SITE_DEFAULT_QUERY_BY,
      extraFilters: criteria,
      fields: { allowed: PUBLIC_SEARCH_FIELDS, filterSchema: PUBLIC_FILTER_SCHEMA },
    },
  );
  const hidden = priceHiddenSql(priceMaskOf(scope));
  const where: SQL[] = [scopeSql(scope), ...req.filters.map((f) => sql`(${userFilterSql(f, hidden)})`)];
  const tsq = textQuery(req);
  if (tsq) where.push(sql`d.tsv @@ ${tsq}`);
  const cell = cellSize(view);
  // One pass over the box's points makes the cells (aggregated as they are read: the whole city is
  // 40,000 points, none kept); the scope and box tests read only the columns of
  // search_map_point_idx, so it is an index-only scan. A sparse cell's pins are read afterwards
  // within its own small box (its points' bounds), by the same index.
  const inScope = sql`${sql.join(where, sql` AND `)} AND d.location_latitude IS NOT NULL AND d.location_longitude IS NOT NULL`;
  const lat = rounded("location_latitude");
  const lng = rounded("location_longitude");
  const res = await db.execute(sql`
    with c as (
      select floor((p.lng + 180) / ${cell}::float8) as cx, floor((p.lat + 90) / ${cell}::float8) as cy,
             count(*) as n, avg(p.lat) as lat, avg(p.lng) as lng, min(p.lat) as s, max(p.lat) as nn, min(p.lng) as w, max(p.lng) as e
      from (
        select ${lat} as lat, ${lng} as lng from search_index d
        where ${inScope} AND ${lat} between ${view.south}::float8 and ${view.north}::float8 AND ${lng} between ${view.west}::float8 and ${view.east}::float8
      ) p
      group by 1, 2
    )
    select null::text as id, c.lat, c.lng, c.n, c.s, c.w, c.nn, c.e, null::float8 as price, null::text as type from c where c.n > ${MAX_PINS_PER_CELL}
    union all
    -- A price above 2^24 is kept exactly in the extras (the column is real).
    select d.listing_id::text, ${lat}, ${lng}, 1, ${lat}, ${lng}, ${lat}, ${lng},
           case when ${hidden ?? sql`false`} then null else coalesce((x.extras->>'price')::float8, d.price::float8) end, d.property_type
    from c join search_index d on ${inScope} AND ${lat} between c.s and c.nn AND ${lng} between c.w and c.e
      left join search_texts x on x.listing_id = d.listing_id
    where c.n <= ${MAX_PINS_PER_CELL}`);
  const out: SiteMap = { clusters: [], pins: [], total: 0 };
  for (const r of rowsOf<Row>(res)) {
    const n = Number(r.n);
    out.total += n;
    if (r.id === null) {
      out.clusters.push({
        lat: r5(Number(r.lat)),
        lng: r5(Number(r.lng)),
        count: n,
        bbox: { west: Number(r.w), south: Number(r.s), east: Number(r.e), north: Number(r.nn) },
      });
    } else {
      out.pins.push({ id: r.id, lat: Number(r.lat), lng: Number(r.lng), price: r.price === null ? null : Number(r.price), type: r.type });
    }
  }
  // A stable order (largest clusters first, pins by id) so equal views give equal answers.
  out.clusters.sort((x, y) => y.count - x.count || x.lat - y.lat || x.lng - y.lng);
  out.pins.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return out;
}
