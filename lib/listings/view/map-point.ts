import { num, obj, type Doc } from "./doc-fields";

export type MapPoint = { lat: number; lng: number; approximate: boolean };

/**
 * Where to draw a listing: a share resolve's `property.coordinates` (exact only when the link's
 * rules say so), else the document's public point, which is always approximate.
 */
export function mapPoint(doc: Doc, property?: Doc): MapPoint | null {
  const c = property ? obj(property.coordinates) : {};
  const lat = num(c.latitude) ?? num(doc.location_latitude);
  const lng = num(c.longitude) ?? num(doc.location_longitude);
  if (lat === null || lng === null) return null;
  return { lat, lng, approximate: property ? c.approximate !== false : true };
}

/** The point in the visitor's maps app (Google Maps' universal link: the app on a phone, the site elsewhere). */
export const mapsLink = (p: Pick<MapPoint, "lat" | "lng">): string => `https://www.google.com/maps/search/?api=1&query=${p.lat.toFixed(5)},${p.lng.toFixed(5)}`;
