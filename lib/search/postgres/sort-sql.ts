import { sql, type SQL } from "drizzle-orm";
import type { SortKey } from "../engine";
import { fieldColumnSql } from "./price-sql";

/** Great-circle distance in metres on the sphere Typesense uses (radius 6,371,010 m). */
export function distanceSql(lat: number, lng: number): SQL {
  return sql`(2 * 6371010 * asin(sqrt(power(sin(radians(d.location_latitude - ${lat}::float8) / 2), 2)
    + cos(radians(${lat}::float8)) * cos(radians(d.location_latitude)) * power(sin(radians(d.location_longitude - ${lng}::float8) / 2), 2))))`;
}

/**
 * ORDER BY for the sort keys. Missing values sort last in both directions (Typesense); the final
 * tie-break is newest first, as Typesense's sequence id. A price the reader may not see (`hidden`,
 * see price-sql.ts) sorts as missing, so its place reveals nothing.
 */
export function orderBySql(keys: SortKey[], hidden: SQL | null = null): SQL {
  const parts = keys.map((k) => {
    const dir = k.dir === "asc" ? sql`ASC` : sql`DESC`;
    if (k.kind === "text_match") return sql`rank ${dir}`;
    if (k.kind === "geo") return sql`${distanceSql(k.lat, k.lng)} ${dir} NULLS LAST`;
    return sql`${fieldColumnSql(k.field, hidden)} ${dir} NULLS LAST`;
  });
  return sql.join([...parts, sql`d.created_at DESC NULLS LAST`, sql`d.listing_id DESC`], sql`, `);
}
