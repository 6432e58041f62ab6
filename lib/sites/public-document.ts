import { z } from "zod";
import { COMMON_FIELDS, DETAIL_FIELDS, PRIMARY_MARKET_FIELDS } from "./public-fields";

/** What `toPublicDocument` answers, described field by field in the allow-lists of `public-fields.ts`. */
export const PublicListingDocumentSchema = z.record(z.string(), z.unknown()).meta({
  id: "PublicListingDocument",
  description:
    "Spec 2 §2.2, built from an allow-list: common fields (`id`, `title`, `description`, `title_en`… `price`, `priceFormatted`, `listingType`, " +
    "`listingCode`, `propertyType`, `bedrooms`, `bathrooms`, `parkingSpots`, `totalArea`, `location_*` with coordinates rounded to 3 decimals, " +
    "`primaryImageUrl`, `imageUrls`) and primary-market fields; the detail adds `suites`, `privateArea`, `features`, `condoFee`, `propertyTax`, " +
    "`location_street`, `imageOrigins` and `hasProviderStagedPhotos` (only with photos), `videoUrl`, `tourUrl`. A private price is `null` with " +
    "`priceFormatted` `Consulte`. Owner contacts, notes, the street number and contacts never appear.",
});

/** What a visitor sees where the tenant keeps the price private (spec 2 §2.2). */
export const PRICE_ON_REQUEST = "Consulte";

type Doc = z.infer<typeof PublicListingDocumentSchema>;

/** Coordinates leave with 3 decimals (about 100 m): the street number is private, so is the exact point. */
const roundCoord = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null);

/**
 * The public document of a listing, built key by key from the allow-lists of `public-fields.ts`
 * (never by deleting keys from a stored row, so a field added to the index later cannot leak).
 * `detail` adds the detail fields of the property page. Translations are empty strings when
 * absent; a private price is null with the "Consulte" placeholder; `imageOrigins` only with photos.
 */
export function toPublicDocument(stored: Doc, opts: { detail: boolean }): Doc {
  const out: Doc = {};
  const names: readonly string[] = opts.detail ? [...COMMON_FIELDS, ...DETAIL_FIELDS, ...PRIMARY_MARKET_FIELDS] : [...COMMON_FIELDS, ...PRIMARY_MARKET_FIELDS];
  for (const name of names) out[name] = stored[name] ?? null;
  for (const t of ["title_en", "description_en", "title_es", "description_es", "description"]) out[t] = typeof stored[t] === "string" ? stored[t] : "";
  out.location_latitude = roundCoord(stored.location_latitude);
  out.location_longitude = roundCoord(stored.location_longitude);
  out.imageUrls = Array.isArray(stored.imageUrls) ? stored.imageUrls.filter((u) => typeof u === "string") : [];
  if (stored.priceVisibility !== "public") {
    out.price = null;
    out.priceFormatted = PRICE_ON_REQUEST;
    out.typologyBasePrice = null;
    out.typologyPricePerSqm = null;
  }
  if (opts.detail) {
    const photos = (out.imageUrls as string[]).length;
    if (photos && Array.isArray(stored.imageOrigins)) out.imageOrigins = stored.imageOrigins.slice(0, photos);
    else delete out.imageOrigins;
    out.hasProviderStagedPhotos = photos ? Array.isArray(out.imageOrigins) && (out.imageOrigins as string[]).some((o) => o !== "original") : false;
    if (!photos) delete out.hasProviderStagedPhotos;
    out.features = Array.isArray(stored.features) ? stored.features : [];
  }
  out.isPrimaryMarket = stored.isPrimaryMarket === true;
  out.marketType = stored.isPrimaryMarket === true ? "primary" : "secondary";
  out.hasAvailableUnits = stored.hasAvailableUnits === true;
  return out;
}
