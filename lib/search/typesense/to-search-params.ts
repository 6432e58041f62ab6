import type { SearchParams } from "typesense/lib/Typesense/Types";
import type { SearchRequest, SearchScope, SortKey } from "../engine";
import { fieldByName, GEO_FIELD, isSortable } from "../fields";
import { normalizeTokens } from "../filter";
import { isPriceField, priceMaskOf, type PriceMask } from "../price-visibility";
import { DEFAULT_SORTING_FIELD, PUBLIC_PRICE_FIELD_NAMES, publicPriceField } from "./collection-schema";
import { buildFilterBy, cleanTokens, plainDecimal } from "./filter-to-string";

export const HIGHLIGHT_START = "<mark>";
export const HIGHLIGHT_END = "</mark>";

/** Access fields the hit never needs (`tenant_id` stays: it tells a network listing apart), and the public prices. */
const EXCLUDED_FIELDS = ["assigned_to_id", "created_by_id", "property_created_by_id", "network_ids", "on_air", ...PUBLIC_PRICE_FIELD_NAMES];

export type TypesenseSearchParams = SearchParams<Record<string, unknown>> & {
  q: string;
  filter_by: string;
  sort_by: string;
  page: number;
  per_page: number;
};

/** The engine-neutral request -> Typesense search parameters, with the scope ANDed around every filter. */
export function toSearchParams(scope: SearchScope, req: SearchRequest): TypesenseSearchParams {
  const mask = priceMaskOf(scope);
  const params: TypesenseSearchParams = {
    q: buildQuery(req.words),
    filter_by: buildFilterBy(scope, req.filters),
    sort_by: buildSortBy(req.sort, mask),
    page: req.page,
    per_page: req.perPage,
    highlight_start_tag: HIGHLIGHT_START,
    highlight_end_tag: HIGHLIGHT_END,
    // Our hit mapper reads the v1 `highlights` list; say so explicitly in case a server default changes.
    enable_highlight_v1: true,
    exclude_fields: EXCLUDED_FIELDS.join(","),
  };
  if (req.queryBy.length) params.query_by = req.queryBy.join(",");
  if (req.facetBy.length) {
    params.facet_by = req.facetBy.map((f) => priceFieldFor(f, mask)).join(",");
    params.max_facet_values = req.maxFacetValues;
  }
  return params;
}

/**
 * `q` rebuilt from the normalized words: `"a phrase"`, `-excluded`, `-"excluded phrase"`; `*` when there are
 * none. Words are tokens already, re-cleaned so a stray quote or dash can never change the query's structure.
 */
export function buildQuery(words: SearchRequest["words"]): string {
  const parts: string[] = [];
  for (const w of words) {
    const text = cleanTokens(normalizeTokens(w.text));
    if (!text) continue;
    const body = w.phrase ? `"${text}"` : text.split(" ").join(w.exclude ? " -" : " ");
    parts.push(w.exclude ? `-${body}` : body);
  }
  return parts.length ? parts.join(" ") : "*";
}

/**
 * The field to sort or facet on for a reader: when the scope reaches private prices the reader may not see,
 * a price field is replaced by its public twin (`price_public`), which such documents lack, so they sort last
 * and stay out of the counts and stats. Typesense has no per-reader expression for "the price unless hidden
 * from you", so the twin also leaves out the reader's own private prices in those searches (the PostgreSQL
 * engine keeps them; docs/decisions.md).
 */
export function priceFieldFor(field: string, mask: PriceMask): string {
  return mask.kind !== "none" && isPriceField(field) ? publicPriceField(field) : field;
}

/**
 * `_text_match:dir`, `field:dir`, `location(lat, lng):dir`, then `createdAt:desc` as the tie-break while there
 * is room (Typesense allows 3 keys) and it is not already a key.
 */
export function buildSortBy(sort: SortKey[], mask: PriceMask = { kind: "none" }): string {
  const parts = sort.map((k) => {
    const dir = k.dir === "asc" ? "asc" : "desc";
    if (k.kind === "text_match") return `_text_match:${dir}`;
    if (k.kind === "geo") {
      if (!Number.isFinite(k.lat) || !Number.isFinite(k.lng)) throw new Error("to-search-params: geo sort point is not finite");
      return `${GEO_FIELD}(${plainDecimal(String(k.lat))}, ${plainDecimal(String(k.lng))}):${dir}`;
    }
    const f = fieldByName(k.field);
    if (!f || !isSortable(f)) throw new Error(`to-search-params: ${JSON.stringify(k.field)} is not a sortable field`);
    return `${priceFieldFor(k.field, mask)}:${dir}`;
  });
  const hasDefault = sort.some((k) => k.kind === "field" && k.field === DEFAULT_SORTING_FIELD);
  if (parts.length < 3 && !hasDefault) parts.push(`${DEFAULT_SORTING_FIELD}:desc`);
  return parts.join(",");
}
