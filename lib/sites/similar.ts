import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import type { SiteRow } from "../../db/schema";
import { strExact } from "../search/ast-build";
import type { SearchHit } from "../search/engine";
import type { FilterNode } from "../search/filter";
import { toSearchRequest } from "../search/params";
import { searchEngine } from "../search/search-engine";
import { findSiteListing } from "./find-site-listing";
import { siteCatalogue, type SiteCatalogue } from "./site-catalogue";

export const MAX_SIMILAR = 12;
export const SimilarQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_SIMILAR, `must be at most ${MAX_SIMILAR}`).default(6),
});

/** How many candidates are ranked: enough for a good top 12, small enough to stay fast. */
const CANDIDATES = 60;

type Doc = Record<string, any>;

/** One card of `toListingCard` (spec 2 §2.3). */
export const ListingCardSchema = z.record(z.string(), z.unknown()).meta({
  id: "ListingCard",
  description:
    "Spec 2 §2.3: `id`, `listingCode`, `path`, `title`, `description`, `businessType`, `price`, `priceVisibility`, `status`, `featured`, `property`, `location` (`number` and `postalCode` always null), `coverImage`, `createdAt`, `updatedAt`.",
});

/** The answer of `similarListings`. */
export const SimilarListingsSchema = z.object({ listings: z.array(ListingCardSchema), total: z.number() });
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * `GET /listings/{listingId}/similar`: listings of the same business type (sale/rent) and property
 * type from the site's catalogue, ranked by closeness to the reference:
 *   +4 same neighborhood, +2 same city (candidates come from the same city first, then the state);
 *   +3 price within 20 % (+1 within 40 %); +2 same bedrooms (+1 one apart);
 *   +2 area within 20 % (+1 within 40 %); newest first among equals.
 * A missing or invisible reference gives `{listings: [], total: 0}` (spec 2 §7).
 */
export async function similarListings(db: DbOrTx, site: SiteRow, ref: string, q: z.infer<typeof SimilarQuery>): Promise<z.infer<typeof SimilarListingsSchema>> {
  const docs = await similarDocuments(db, site, ref, q.limit);
  return { listings: docs.map(toListingCard), total: docs.length };
}

/**
 * The ranked search documents behind `similarListings` (the rendered listing page reads their
 * translated titles, which the spec's card has no field for). Not public as they are: show them
 * through `toListingCard`'s allow-list.
 */
export async function similarDocuments(db: DbOrTx, site: SiteRow, ref: string, limit: number): Promise<Doc[]> {
  const catalogue = await siteCatalogue(db, site);
  const refHit = await findSiteListing(db, site, ref, catalogue);
  return refHit ? similarToHit(db, site, refHit, limit, catalogue) : [];
}

/** `similarDocuments` for a listing the caller has already found (`findSiteListing`'s hit). */
export async function similarToHit(db: DbOrTx, site: SiteRow, refHit: SearchHit, limit: number, catalogue?: SiteCatalogue): Promise<Doc[]> {
  const r = refHit.document as Doc;
  const { scope, criteria } = catalogue ?? (await siteCatalogue(db, site));
  // The reference is dropped in code, not by an `id:!=` clause: the candidate searches are then the
  // same for every listing of a type and city, so the search cache serves them across pages.
  const base: FilterNode[] = [...criteria];
  if (r.listingType) base.push(strExact("listingType", [r.listingType]));
  if (r.propertyType) base.push(strExact("propertyType", [r.propertyType]));
  const engine = await searchEngine();
  const seen = new Map<string, SearchHit>();
  // Nearest area first: the city, then the state, then anywhere in the catalogue.
  const areas: FilterNode[][] = [
    r.location_city ? [strExact("location_city", [r.location_city])] : [],
    r.location_state ? [strExact("location_state", [r.location_state])] : [],
    [],
  ];
  for (const area of areas) {
    if (seen.size >= CANDIDATES) break;
    // Candidates to rank, not a result page: no total is needed, and counting a whole state's
    // catalogue cost more than the page itself.
    const req = {
      ...toSearchRequest({ q: "*", per_page: CANDIDATES + 1 }, { maxPerPage: CANDIDATES + 1, extraFilters: [...base, ...area] }),
      total: false as const,
    };
    for (const h of (await engine.search(scope, req)).hits) {
      const hid = String(h.document.id);
      if (hid !== String(r.id) && !seen.has(hid)) seen.set(hid, h);
    }
  }
  const ranked = [...seen.values()]
    .map((h) => ({ h, score: similarity(r, h.document as Doc) }))
    .sort((a, b) => b.score - a.score || Number(b.h.document.createdAt ?? 0) - Number(a.h.document.createdAt ?? 0))
    .slice(0, limit);
  return ranked.map(({ h }) => h.document as Doc);
}

function similarity(r: Doc, d: Doc): number {
  let s = 0;
  if (r.location_neighborhood && d.location_neighborhood === r.location_neighborhood) s += 4;
  if (r.location_city && d.location_city === r.location_city) s += 2;
  s += band(num(r.price), num(d.price), 3);
  const rb = num(r.bedrooms);
  const db = num(d.bedrooms);
  if (rb !== null && db !== null) s += rb === db ? 2 : Math.abs(rb - db) === 1 ? 1 : 0;
  s += band(num(r.totalArea), num(d.totalArea), 2);
  return s;
}

/** `full` points within 20 % of the reference, 1 within 40 %. */
function band(ref: number | null, v: number | null, full: number): number {
  if (!ref || v === null) return 0;
  const off = Math.abs(v - ref) / ref;
  return off <= 0.2 ? full : off <= 0.4 ? 1 : 0;
}

const iso = (epoch: unknown) => (typeof epoch === "number" ? new Date(epoch * 1000).toISOString() : null);

/**
 * The listing card of spec 2 §2.3, from the (price-masked) search document, field by field. The
 * street number and postal code are not public: always null. No typology fields on cards.
 */
export function toListingCard(d: Doc) {
  const privatePrice = d.priceVisibility !== "public";
  return {
    id: d.id,
    listingCode: d.listingCode ?? null,
    path: `/imovel/${encodeURIComponent(d.listingCode ?? d.id)}`,
    title: d.title ?? "",
    description: d.description ?? "",
    businessType: d.listingType,
    price: privatePrice ? null : (num(d.price) ?? null),
    priceVisibility: privatePrice ? "private" : "public",
    status: d.status ?? null,
    featured: false,
    property: {
      type: d.propertyType ?? null,
      bedrooms: num(d.bedrooms),
      bathrooms: num(d.bathrooms),
      suites: num(d.suites),
      parkingSpaces: num(d.parkingSpots),
      totalArea: num(d.totalArea),
      usableArea: num(d.privateArea),
    },
    location: {
      street: d.location_street ?? null,
      number: null,
      neighborhood: d.location_neighborhood ?? null,
      city: d.location_city ?? null,
      state: d.location_state ?? null,
      postalCode: null,
    },
    coverImage: d.primaryImageUrl ? { src: d.primaryImageUrl, alt: d.title ?? "" } : null,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
  } satisfies z.infer<typeof ListingCardSchema>;
}
