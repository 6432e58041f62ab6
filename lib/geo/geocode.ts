import { config } from "../config";
import { logger } from "../log/logger";
import { outboundRequest } from "../outbound-fetch/outbound-request";

export type Point = { latitude: number; longitude: number };

const TIMEOUT_MS = 5_000;
/** One hit is asked for; a larger answer is not a Nominatim answer. */
const MAX_BYTES = 1_000_000;

/**
 * The coordinates of an address through a Nominatim-compatible service (`GEOCODER_URL`), or null
 * when none is configured, nothing matches, or the service fails or is slow: a captured property
 * without coordinates is still worth keeping, so geocoding never fails the caller.
 */
export async function geocode(address: {
  street?: string;
  number?: string;
  neighborhood?: string;
  city?: string;
  state?: string;
  postalCode?: string;
}): Promise<Point | null> {
  const base = config().GEOCODER_URL;
  if (!base) return null;
  const q = [
    address.street && [address.street, address.number].filter(Boolean).join(", "),
    address.neighborhood,
    address.city,
    address.state,
    address.postalCode,
    "Brasil",
  ]
    .filter(Boolean)
    .join(", ");
  if (!address.city && !address.postalCode && !address.street) return null;
  const url = new URL("search", base.endsWith("/") ? base : `${base}/`);
  url.search = new URLSearchParams({ format: "json", limit: "1", countrycodes: "br", q }).toString();
  try {
    // Through the outbound guard like every call carrying visitor data. Redirects are followed as
    // fetch did (an http base moved to https), each hop checked again.
    const res = await outboundRequest(url, {
      purpose: "geocoder",
      maxRedirects: 3,
      headers: { accept: "application/json", "user-agent": `${config().SERVICE_NAME} geocoder` },
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`geocoder answered ${res.status}`);
    const [hit] = JSON.parse(res.body.toString("utf8")) as { lat?: string; lon?: string }[];
    const latitude = Number(hit?.lat);
    const longitude = Number(hit?.lon);
    if (!hit || !Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
    return { latitude, longitude };
  } catch (err) {
    logger().warn({ err: (err as Error).message, q }, "geocoding failed; the property is kept without coordinates");
    return null;
  }
}
