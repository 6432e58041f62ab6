import type { FilterNode } from "./filter";

/** Who is searching: the tenant, what its actor may see, and whether partner networks count. */
export type SearchScope = {
  tenantId: string;
  /** `restricted`: public listings plus the member's own (a broker's view). */
  access: { kind: "all" } | { kind: "restricted"; userId: string };
  /** Networks whose shared public listings are included (empty: own tenant only). */
  networkIds: string[];
  /** Public surfaces: only public listings in the active stage (spec 2 §4 automatic filters). */
  publicOnly?: { activeStage: string };
};

export type SortKey =
  | { kind: "text_match"; dir: "asc" | "desc" }
  | { kind: "field"; field: string; dir: "asc" | "desc" }
  | { kind: "geo"; lat: number; lng: number; dir: "asc" | "desc" };

/** A search after parameter validation: engine-neutral, so PostgreSQL and Typesense run the same thing. */
export type SearchRequest = {
  q: string;
  /** Normalized query words; empty for `*`. */
  words: { text: string; exclude: boolean; phrase: boolean }[];
  queryBy: string[];
  filters: FilterNode[];
  sort: SortKey[];
  facetBy: string[];
  maxFacetValues: number;
  page: number;
  perPage: number;
  /**
   * Ours, never from a request: `false` when the caller needs no total (similar listings rank a
   * page of candidates): the PostgreSQL engine skips its count, and `found` is then the hits' number.
   */
  total?: false;
  /** Ours, never from a request: `false` skips the result cache (bulk reads such as sitemaps, never asked again). */
  cache?: false;
};

export type FacetCount = {
  field_name: string;
  sampled: false;
  counts: { count: number; highlighted: string; value: string }[];
  stats: { total_values: number; min?: number; max?: number; sum?: number; avg?: number };
};

export type Highlight = { field: string; snippet: string; matched_tokens: string[] };

export type SearchHit = {
  document: Record<string, unknown>;
  highlights: Highlight[];
  highlight: Record<string, { snippet: string; matched_tokens: string[] }>;
  text_match?: number;
  geo_distance_meters?: Record<string, number>;
  /** Ours: the listing belongs to another tenant of a shared network. */
  isNetworkListing: boolean;
};

export type SearchResult = {
  facet_counts: FacetCount[];
  found: number;
  hits: SearchHit[];
  out_of: number;
  page: number;
  request_params: { collection_name: string; per_page: number; q: string };
  search_cutoff: false;
  search_time_ms: number;
};

export interface SearchEngine {
  readonly name: "postgres" | "typesense";
  search(scope: SearchScope, req: SearchRequest): Promise<SearchResult>;
}
