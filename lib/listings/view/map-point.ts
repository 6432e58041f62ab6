import { num, obj, type Doc } from "./doc-fields";

/** `radiusM`: how far the true place may be from the point (0 when exact), drawn as a circle around it. */
export type MapPoint = { lat: number; lng: number; approximate: boolean; radiusM: number };

/**
 * A share link's approximate point is displaced 150-500 m (lib/share/approximate.ts); a site's
 * public point is rounded to 3 decimals (at most about 80 m off). The circle holds the true place.
 */
const SHARED_APPROXIMATE_M = 500;
const PUBLIC_POINT_M = 100;

/**
 * Where to draw a listing: a share resolve's `property.coordinates` (exact only when the link's
 * rules say so), else the document's public point, which is always approximate.
 */
export function mapPoint(doc: Doc, property?: Doc): MapPoint | null {
  const c = property ? obj(property.coordinates) : {};
  const lat = num(c.latitude) ?? num(doc.location_latitude);
  const lng = num(c.longitude) ?? num(doc.location_longitude);
  if (lat === null || lng === null) return null;
  const approximate = property ? c.approximate !== false : true;
  const fromLink = property && num(c.latitude) !== null;
  return { lat, lng, approximate, radiusM: !approximate ? 0 : fromLink ? SHARED_APPROXIMATE_M : PUBLIC_POINT_M };
}

/** The point in the visitor's maps app (Google Maps' universal link: the app on a phone, the site elsewhere). */
export const mapsLink = (p: Pick<MapPoint, "lat" | "lng">): string => `https://www.google.com/maps/search/?api=1&query=${p.lat.toFixed(5)},${p.lng.toFixed(5)}`;
