import { createHmac } from "node:crypto";

const EARTH_M_PER_DEG_LAT = 111_320;

/**
 * A point displaced by 150 to 500 m in a direction, both fixed by the link's secret seed: every
 * load of one link shows the same point (no averaging the noise away over reloads), two links of
 * one listing show different points, and the seed never leaves the server, so nobody holding a
 * link can compute the offset back. Four decimals (about 11 m) are plenty for a displaced point.
 * The offset is at most 490 m so that, with that rounding (under 8 m), the true place is always
 * inside the 500 m circle the map draws around the point (lib/listings/view/map-point.ts).
 */
export function approximatePoint(seed: string, lat: number, lng: number): { latitude: number; longitude: number } {
  const h = createHmac("sha256", seed).update("coordinates").digest();
  const u1 = h.readUInt32BE(0) / 2 ** 32;
  const u2 = h.readUInt32BE(4) / 2 ** 32;
  const distance = 150 + 340 * Math.sqrt(u1);
  const angle = 2 * Math.PI * u2;
  const dLat = (distance * Math.cos(angle)) / EARTH_M_PER_DEG_LAT;
  const dLng = (distance * Math.sin(angle)) / (EARTH_M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180));
  const r4 = (v: number) => Math.round(v * 10_000) / 10_000;
  return { latitude: r4(lat + dLat), longitude: r4(lng + dLng) };
}
