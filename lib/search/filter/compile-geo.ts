/**
 * Geo shapes -> SQL over the schema's latitude / longitude columns (search-language.md §1.6).
 * Every number is a bound parameter; only the column identifiers come from the (trusted) schema.
 */
import { sql, type SQL } from "drizzle-orm";
import type { GeoShape } from "./ast";
import { planar } from "./geo";

import { EARTH_RADIUS_M } from "../../geo/distance";

export { EARTH_RADIUS_M };

const f8 = (n: number) => sql`${n}::double precision`;

export function compileGeoShape(shape: GeoShape, lat: SQL, lng: SQL): SQL {
  return shape.type === "circle" ? circle(shape, lat, lng) : polygon(shape.vertices, lat, lng);
}

/**
 * Haversine distance <= radius, inclusive (Typesense's comparator is `<=`). The latitude band in front is
 * implied by the distance (a point farther in latitude is farther, full stop) and lets an index on `lat` help.
 */
function circle(c: Extract<GeoShape, { type: "circle" }>, lat: SQL, lng: SQL): SQL {
  const band = (c.radiusMeters / EARTH_RADIUS_M) * (180 / Math.PI) + 1e-9;
  const haversine = sql`2 * ${f8(EARTH_RADIUS_M)} * asin(least(1::double precision, sqrt(
    power(sin(radians(${lat} - ${f8(c.lat)}) / 2), 2)
    + cos(radians(${f8(c.lat)})) * cos(radians(${lat})) * power(sin(radians(${lng} - ${f8(c.lng)}) / 2), 2))))`;
  return sql`(${lat} BETWEEN ${f8(c.lat - band)} AND ${f8(c.lat + band)} AND ${haversine} <= ${f8(c.radiusMeters)})`;
}

/**
 * Point in polygon with PostgreSQL's built-in geometric `polygon @> point` (core PostgreSQL, no PostGIS): an exact
 * even-odd test, so clockwise and counter-clockwise vertex orders give the same answer. The polygon travels as ONE
 * bound text parameter built only from validated numbers, e.g. `((-97.8,30.3),(-97.7,30.3),(-97.7,30.2))` with
 * x = longitude, y = latitude. A bounding box in front lets plain indexes on lat / lng help. Polygons crossing
 * the antimeridian are tested on shifted longitudes (see `planar`).
 */
function polygon(vertices: Array<[number, number]>, lat: SQL, lng: SQL): SQL {
  const { xs, ys, wrap } = planar(vertices);
  const x = wrap ? sql`(CASE WHEN ${lng} < 0 THEN ${lng} + 360 ELSE ${lng} END)` : lng;
  const text = `(${xs.map((px, i) => `(${num(px)},${num(ys[i])})`).join(",")})`;
  return sql`(${lat} BETWEEN ${f8(Math.min(...ys))} AND ${f8(Math.max(...ys))}
    AND ${x} BETWEEN ${f8(Math.min(...xs))} AND ${f8(Math.max(...xs))}
    AND ${text}::polygon @> point(${x}, ${lat}))`;
}

/** `String` round-trips a double exactly, and PostgreSQL's point parser reads its exponent form (`1e-7`). */
function num(n: number): string {
  if (!Number.isFinite(n)) throw new Error("polygon vertex is not a finite number"); // the parser guarantees it
  return String(n);
}
