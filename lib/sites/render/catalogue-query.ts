/**
 * The catalogue's state in the URL (`/imoveis?type=sale&bedrooms=2&page=3`) and the public search
 * body it becomes. Pure: a bad value is dropped (the page shows the rest), never an error, so a
 * hand-edited or stale URL still renders a catalogue. Values travel as backtick-quoted filter
 * values; a backtick inside one cannot be quoted and is removed.
 */
import { storableText } from "../../util/storable-text";

export type SortKey = "newest" | "price_asc" | "price_desc" | "area_desc";
export const SORTS: Record<SortKey, string> = {
  newest: "publishedAt:desc",
  price_asc: "price:asc",
  price_desc: "price:desc",
  area_desc: "totalArea:desc",
};

export type CatalogueState = {
  q?: string;
  type?: "sale" | "rental";
  propertyType?: string;
  minPrice?: number;
  maxPrice?: number;
  bedrooms?: number;
  minArea?: number;
  maxArea?: number;
  city?: string;
  neighborhood?: string;
  sort: SortKey;
  page: number;
  /** The map view (`view=map`): not a filter, but kept by every link and form of the page so changing a filter stays on the map. */
  view?: "map";
};

/** A location page's place, from the validated path (names as stored, not slugs). */
export type PlaceFilter = { state?: string | null; city?: string | null; neighborhood?: string | null; street?: string | null };

export const PER_PAGE = 12;
export const MAX_PAGE = 400;

type Raw = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() ?? "";

/** Whole reais, with or without thousands dots: `900000`, `900.000`. */
function money(v: string): number | undefined {
  if (!/^[\d.]+$/.test(v)) return undefined;
  const n = Number(v.replace(/\./g, ""));
  return v && Number.isFinite(n) && n > 0 && n < 1e11 ? Math.round(n) : undefined;
}
function small(v: string, max: number): number | undefined {
  const n = Number(v);
  return v && Number.isInteger(n) && n >= 1 && n <= max ? n : undefined;
}
/** Free text: no backquote (the filter's quote), a control character as a space, storable (cut first: a cut can split a pair). */
const text = (v: string, max = 120) =>
  v
    ? storableText(v.slice(0, max))
        .replace(/`/g, "")
        .replace(/\p{Cc}+/gu, " ")
        .trim() || undefined
    : undefined;
/** A place name: free text with at least one letter or digit (a filter value of only punctuation is empty to the search). */
const place = (v: string) => {
  const t = text(v);
  return t && /[\p{L}\p{N}]/u.test(t) ? t : undefined;
};
const slugLike = (v: string) => (/^[a-z0-9_-]{1,60}$/.test(v) ? v : undefined);

export function parseCatalogue(raw: Raw): CatalogueState {
  const type = one(raw.type);
  const sort = one(raw.sort) as SortKey;
  const s: CatalogueState = {
    q: text(one(raw.q), 200),
    type: type === "sale" || type === "rental" ? type : undefined,
    propertyType: slugLike(one(raw.propertyType)),
    minPrice: money(one(raw.minPrice)),
    maxPrice: money(one(raw.maxPrice)),
    bedrooms: small(one(raw.bedrooms), 10),
    minArea: small(one(raw.minArea), 100_000),
    maxArea: small(one(raw.maxArea), 100_000),
    city: place(one(raw.city)),
    neighborhood: place(one(raw.neighborhood)),
    // Own keys only: `constructor` or `__proto__` are "in" any object.
    sort: Object.hasOwn(SORTS, sort) ? sort : "newest",
    page: small(one(raw.page), MAX_PAGE) ?? 1,
    view: one(raw.view) === "map" ? "map" : undefined,
  };
  if (s.minPrice && s.maxPrice && s.minPrice > s.maxPrice) [s.minPrice, s.maxPrice] = [s.maxPrice, s.minPrice];
  if (s.minArea && s.maxArea && s.minArea > s.maxArea) [s.minArea, s.maxArea] = [s.maxArea, s.minArea];
  return s;
}

const quote = (v: string) => `\`${v.replace(/`/g, "")}\``;

/** The filter clauses of a state (and of a location page's place), joined with `&&`. */
export function filterBy(s: CatalogueState, place: PlaceFilter = {}): string {
  const f: string[] = [];
  if (s.type) f.push(`listingType:=${s.type}`);
  if (s.propertyType) f.push(`propertyType:=${quote(s.propertyType)}`);
  if (s.minPrice) f.push(`price:>=${s.minPrice}`);
  if (s.maxPrice) f.push(`price:<=${s.maxPrice}`);
  if (s.bedrooms) f.push(`bedrooms:>=${s.bedrooms}`);
  if (s.minArea) f.push(`totalArea:>=${s.minArea}`);
  if (s.maxArea) f.push(`totalArea:<=${s.maxArea}`);
  if (place.state) f.push(`location_state:=${quote(place.state)}`);
  if (place.city ?? s.city) f.push(`location_city:=${quote((place.city ?? s.city)!)}`);
  if (place.neighborhood ?? s.neighborhood) f.push(`location_neighborhood:=${quote((place.neighborhood ?? s.neighborhood)!)}`);
  if (place.street) f.push(`location_street:=${quote(place.street)}`);
  return f.join(" && ");
}

export const FACETS = "listingType,propertyType,bedrooms,location_city,location_neighborhood";

/** The body of the site's public search (`searchSite`) for a catalogue page. */
export function searchBody(s: CatalogueState, place: PlaceFilter = {}) {
  const filter = filterBy(s, place);
  return {
    q: s.q || "*",
    ...(filter ? { filter_by: filter } : {}),
    sort_by: SORTS[s.sort],
    facet_by: FACETS,
    max_facet_values: 30,
    per_page: PER_PAGE,
    page: s.page,
  };
}

/** The URL parameters of a state (defaults left out), for links and canonical addresses. */
export function stateParams(s: Partial<CatalogueState>): Record<string, string | undefined> {
  return {
    q: s.q,
    type: s.type,
    propertyType: s.propertyType,
    minPrice: s.minPrice?.toString(),
    maxPrice: s.maxPrice?.toString(),
    bedrooms: s.bedrooms?.toString(),
    minArea: s.minArea?.toString(),
    maxArea: s.maxArea?.toString(),
    city: s.city,
    neighborhood: s.neighborhood,
    sort: s.sort && s.sort !== "newest" ? s.sort : undefined,
    page: s.page && s.page > 1 ? String(s.page) : undefined,
    view: s.view,
  };
}

/** Whether any filter narrows the catalogue (such pages are noindex: the unfiltered pages are canonical). */
export const isFiltered = (s: CatalogueState) =>
  Boolean(
    s.q || s.type || s.propertyType || s.minPrice || s.maxPrice || s.bedrooms || s.minArea || s.maxArea || s.city || s.neighborhood || s.sort !== "newest",
  );
