import type { MediaRow, PropertyRow } from "../../db/schema";
import { PRICE_ON_REQUEST } from "../sites/public-document";
import { approximatePoint } from "./approximate";
import type { SharingConfig } from "../tenants/sharing-config";

type Doc = Record<string, unknown>;
type Visibility = SharingConfig["fieldVisibility"];

/** Address fields each `fieldVisibility.address` value shows, in the document's and the property's names. */
const DOC_ADDRESS: Record<Visibility["address"], string[]> = {
  full: ["location_street", "location_neighborhood", "location_city", "location_state"],
  neighborhood_only: ["location_neighborhood", "location_city", "location_state"],
  city_only: ["location_city", "location_state"],
  hidden: [],
};
const PROPERTY_ADDRESS: Record<Visibility["address"], (keyof PropertyRow)[]> = {
  full: ["street", "number", "neighborhood", "city", "state", "postalCode"],
  neighborhood_only: ["neighborhood", "city", "state"],
  city_only: ["city", "state"],
  hidden: [],
};

export type Point = { latitude: number; longitude: number } | null;

/** The point a link shows: exact, displaced by the link's fixed offset, or none. */
export function sharedPoint(v: Visibility, seed: string, p: Pick<PropertyRow, "latitude" | "longitude">): Point {
  if (v.coordinates === "hidden" || p.latitude === null || p.longitude === null) return null;
  if (v.coordinates === "exact") return { latitude: p.latitude, longitude: p.longitude };
  return approximatePoint(seed, p.latitude, p.longitude);
}

/**
 * The public search document (already built by the sites serializer from its allow-list) narrowed
 * to what the tenant's sharing rules allow: address level, point, financials, price, listing code.
 * Keys a rule hides are removed, not nulled, so a page cannot tell "hidden" from "unknown" wrongly.
 */
export function applyToDocument(doc: Doc, v: Visibility, point: Point): Doc {
  const out: Doc = { ...doc };
  for (const k of DOC_ADDRESS.full) if (!DOC_ADDRESS[v.address].includes(k)) delete out[k];
  if (point) {
    out.location_latitude = point.latitude;
    out.location_longitude = point.longitude;
  } else {
    delete out.location_latitude;
    delete out.location_longitude;
  }
  if (v.financials === "hidden") {
    delete out.condoFee;
    delete out.propertyTax;
  }
  if (v.price === "hidden") {
    out.price = null;
    out.priceFormatted = PRICE_ON_REQUEST;
    if ("typologyBasePrice" in out) out.typologyBasePrice = null;
    if ("typologyPricePerSqm" in out) out.typologyPricePerSqm = null;
  }
  if (v.listingCode === "hidden") delete out.listingCode;
  return out;
}

const num = (v: string | null) => (v === null ? null : Number(v));

/** The property of a shared listing, from an allow-list of its columns (owner and notes never read). */
export function propertyPayload(p: PropertyRow, v: Visibility, point: Point): Doc {
  const out: Doc = {
    type: p.type,
    bedrooms: p.bedrooms,
    bathrooms: p.bathrooms,
    suites: p.suites,
    parkingSpaces: p.parkingSpaces,
    totalArea: num(p.totalArea),
    usableArea: num(p.usableArea),
    privateArea: num(p.privateArea),
    features: p.features,
  };
  const address: Doc = {};
  for (const k of PROPERTY_ADDRESS[v.address]) address[k] = p[k] ?? null;
  if (v.address !== "hidden") out.address = address;
  if (point) out.coordinates = { ...point, approximate: v.coordinates === "approximate" };
  if (v.financials === "visible") {
    out.condoFee = num(p.condominiumFee);
    out.propertyTax = num(p.propertyTax);
  }
  return out;
}

export const mediaPayload = (m: MediaRow) => ({ id: m.id, src: m.url, alt: m.alt, type: m.type, category: m.category, order: m.order, isPrimary: m.isPrimary });
