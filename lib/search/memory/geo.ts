/**
 * Geo filters and distances in memory, computed as PostgreSQL computes them (compile-geo.ts,
 * sort-sql.ts), so both engines keep and order the same documents.
 */
import type { GeoShape } from "../filter";
import { EARTH_RADIUS_M, haversineMeters } from "../../geo/distance";
import { planar } from "../filter/geo";
import type { QueryView } from "./query-view";

/** The haversine distance of compile-geo.ts / sort-sql.ts, in metres. */
export const haversine = haversineMeters;

/** Whether a slot's point is inside a shape (a circle by haversine, a polygon by the even-odd rule). */
export function geoTest(view: QueryView, s: GeoShape): (i: number) => boolean {
  const { lat, lng } = view.ix;
  if (s.type === "circle") {
    const band = (s.radiusMeters / EARTH_RADIUS_M) * (180 / Math.PI) + 1e-9;
    return (i) => {
      const y = lat[i];
      return y >= s.lat - band && y <= s.lat + band && haversine(s.lat, s.lng, y, lng[i], true) <= s.radiusMeters;
    };
  }
  const { xs, ys, wrap } = planar(s.vertices);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return (i) => {
    const y = lat[i];
    const x = wrap && lng[i] < 0 ? lng[i] + 360 : lng[i];
    return y >= minY && y <= maxY && x >= minX && x <= maxX && insidePolygon(xs, ys, x, y);
  };
}

/** Even-odd test with the boundary inside, as PostgreSQL's `polygon @> point`. */
function insidePolygon(xs: number[], ys: number[], x: number, y: number): boolean {
  let inside = false;
  for (let a = 0, b = xs.length - 1; a < xs.length; b = a++) {
    const [ax, ay, bx, by] = [xs[a], ys[a], xs[b], ys[b]];
    const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (Math.abs(cross) <= 1e-12 && x >= Math.min(ax, bx) && x <= Math.max(ax, bx) && y >= Math.min(ay, by) && y <= Math.max(ay, by)) return true;
    if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) inside = !inside;
  }
  return inside;
}
