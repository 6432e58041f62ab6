import { z } from "zod";
import { storableText } from "../util/storable-text";

/** Lower case without accents: how the search compares place names (`São Paulo` = `sao paulo`). */
export const foldText = (v: string) =>
  v
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

const place = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .refine((v) => /[\p{L}\p{N}]/u.test(v), "must name a place")
  .transform((v) => storableText(v).replace(/`/g, ""));
const money = z.number().int().positive().max(99_999_999_999);
const area = z.number().int().min(1).max(100_000);

/**
 * The catalogue's filters (`lib/sites/render/catalogue-query.ts`: the same keys as its URL), as a
 * saved search keeps them. Strict: an unknown key is a 400 naming it, never silently dropped, so
 * a visitor is never alerted for less than they asked.
 */
export const SavedFiltersSchema = z
  .strictObject({
    q: z.string().trim().max(200).optional().meta({ description: "Words every matching listing contains (title, description or address)." }),
    type: z.enum(["sale", "rental"]).optional(),
    propertyType: z
      .string()
      .regex(/^[a-z0-9_-]{1,60}$/, "must be a property type id of the tenant")
      .optional(),
    minPrice: money.optional(),
    maxPrice: money.optional(),
    bedrooms: z.number().int().min(1).max(10).optional().meta({ description: "At least this many bedrooms." }),
    minArea: area.optional(),
    maxArea: area.optional(),
    city: place.optional(),
    neighborhood: place.optional(),
  })
  .refine((f) => !(f.minPrice && f.maxPrice && f.minPrice > f.maxPrice), { message: "minPrice must not exceed maxPrice", path: ["minPrice"] })
  .refine((f) => !(f.minArea && f.maxArea && f.minArea > f.maxArea), { message: "minArea must not exceed maxArea", path: ["minArea"] })
  .meta({ id: "SavedSearchFilters", description: "The catalogue's filters (its URL parameters without `sort`, `page` and `view`)." });

export type SavedFilters = z.output<typeof SavedFiltersSchema>;

/** The selective filters as the candidate columns hold them ('' for "any"). */
export function candidateColumns(f: SavedFilters) {
  return {
    listingType: f.type ?? "",
    cityKey: f.city ? foldText(f.city) : "",
    propertyType: f.propertyType ?? "",
    hoodKey: f.neighborhood ? foldText(f.neighborhood) : "",
    minBedrooms: f.bedrooms ?? 0,
    minPrice: f.minPrice ?? null,
    maxPrice: f.maxPrice ?? null,
  };
}

/** What the matcher knows of a listing: its search document's fields. */
export type MatchDoc = Record<string, unknown>;

/** A document field as a number, or null when it is none (missing, NaN, infinite). */
export const finiteNumber = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * `foldText` remembered: one listing change is checked against hundreds of searches naming the
 * same few places, and each fold is a Unicode normalisation. Bounded: cleared when full.
 */
const folds = new Map<string, string>();
function folded(v: string): string {
  let out = folds.get(v);
  if (out === undefined) {
    if (folds.size >= 10_000) folds.clear();
    out = foldText(v);
    folds.set(v, out);
  }
  return out;
}
const str = (v: unknown) => (typeof v === "string" ? folded(v) : "");

/**
 * Whether a listing's document meets every filter of a saved search, as the catalogue's search
 * would (price and area bounds inclusive, at least `bedrooms`, places compared without case or
 * accents, every word of `q` in the title, description or address). A bound on a value the
 * listing lacks does not match, as a search filter on it would not.
 */
export function matchesFilters(doc: MatchDoc, f: SavedFilters): boolean {
  if (f.type && doc.listingType !== f.type) return false;
  if (f.propertyType && doc.propertyType !== f.propertyType) return false;
  const price = finiteNumber(doc.price);
  if ((f.minPrice || f.maxPrice) && price === null) return false;
  if (f.minPrice && price! < f.minPrice) return false;
  if (f.maxPrice && price! > f.maxPrice) return false;
  if (f.bedrooms && (finiteNumber(doc.bedrooms) ?? -1) < f.bedrooms) return false;
  const areaOf = finiteNumber(doc.totalArea);
  if ((f.minArea || f.maxArea) && areaOf === null) return false;
  if (f.minArea && areaOf! < f.minArea) return false;
  if (f.maxArea && areaOf! > f.maxArea) return false;
  if (f.city && str(doc.location_city) !== folded(f.city)) return false;
  if (f.neighborhood && str(doc.location_neighborhood) !== folded(f.neighborhood)) return false;
  if (f.q) {
    const hay = foldText(
      [doc.title, doc.description, doc.location_neighborhood, doc.location_city, doc.location_street].filter((x) => typeof x === "string").join(" "),
    );
    if (
      !foldText(f.q)
        .split(" ")
        .every((w) => !w || hay.includes(w))
    )
      return false;
  }
  return true;
}
