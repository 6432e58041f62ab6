/**
 * Great-circle distance (haversine), one implementation for every feature that measures one: the
 * search's geo filters and distance sort (where it must equal PostgreSQL's, see
 * `lib/search/filter/compile-geo.ts` and `lib/search/postgres/sort-sql.ts`), the visit itinerary's
 * legs and the valuation's comparables.
 */

/** Typesense measures on S2's sphere; the same radius everywhere so borderline points agree. */
export const EARTH_RADIUS_M = 6371010;

/** PostgreSQL's `radians()`: the degrees times one constant (RADIANS_PER_DEGREE), so both round alike. */
const RADIANS_PER_DEGREE = Math.PI / 180;
const rad = (d: number) => d * RADIANS_PER_DEGREE;

/**
 * Metres between two points. `clamp` bounds the square root's argument to 1 (as the SQL filter's
 * `least(1, …)` does); the SQL distance sort does not clamp, and its in-memory twin passes false.
 */
export function haversineMeters(lat1: number, lng1: number, lat2: number, lng2: number, clamp = true): number {
  const s = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(clamp ? Math.min(1, Math.sqrt(s)) : Math.sqrt(s));
}
