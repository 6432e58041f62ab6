import { Errors } from "typesense";
import { invalid } from "../../errors/domain-errors";
import type { FacetCount, Highlight, SearchHit, SearchRequest, SearchResult, SearchScope } from "../engine";
import { GEO_FIELD, LAT_COLUMN, LNG_COLUMN, SEARCH_FIELDS } from "../fields";
import { maskDocument, priceMaskOf, type PriceMask } from "../price-visibility";
import { INTERNAL_FIELD_NAMES, PUBLIC_PRICE_FIELD_NAMES } from "./collection-schema";
import { HIGHLIGHT_END, HIGHLIGHT_START } from "./to-search-params";

/** What we read from a Typesense search response (search-language.md §4-§5); everything is checked, not trusted. */
export type TypesenseHighlightV1 = {
  field: string;
  snippet?: string;
  snippets?: string[];
  indices?: number[];
  matched_tokens?: string[] | string[][];
  value?: string;
  values?: string[];
};
type HighlightV2Entry = { snippet?: string; matched_tokens?: string[] };
export type TypesenseHit = {
  document: Record<string, unknown>;
  highlights?: TypesenseHighlightV1[];
  highlight?: Record<string, HighlightV2Entry | HighlightV2Entry[] | unknown>;
  text_match?: number;
  text_match_info?: { score?: string | number };
  geo_distance_meters?: Record<string, number>;
};
export type TypesenseFacetCount = {
  field_name: string;
  sampled?: boolean;
  counts?: { count: number; highlighted?: string; value: string | number | boolean }[];
  stats?: { total_values?: number; min?: number; max?: number; sum?: number; avg?: number };
};
export type TypesenseSearchResponse = {
  facet_counts?: TypesenseFacetCount[];
  found: number;
  hits?: TypesenseHit[];
  out_of: number;
  page: number;
  request_params?: { collection_name?: string; per_page?: number; q?: string };
  search_cutoff?: boolean;
  search_time_ms: number;
  /** Set instead of the above when one search of a multi_search fails. */
  error?: string;
  code?: number;
};

export type FromTypesenseOptions = {
  /** Documents in the caller's scope (Typesense's own `out_of` counts the whole collection, every tenant). */
  outOf?: number;
  collection?: string;
};

/** A Typesense search response -> our Typesense-shaped `SearchResult`. */
export function fromTypesense(res: TypesenseSearchResponse, scope: SearchScope, req: SearchRequest, opts: FromTypesenseOptions = {}): SearchResult {
  const mask = priceMaskOf(scope);
  return {
    facet_counts: (res.facet_counts ?? []).map(facet),
    found: toInt(res.found),
    hits: (res.hits ?? []).map((h) => hit(h, scope, mask)),
    out_of: toInt(opts.outOf ?? res.out_of),
    page: toInt(res.page ?? req.page) || req.page,
    request_params: {
      collection_name: res.request_params?.collection_name ?? opts.collection ?? "listings",
      per_page: res.request_params?.per_page ?? req.perPage,
      q: req.q,
    },
    search_cutoff: false,
    search_time_ms: toInt(res.search_time_ms),
  };
}

function hit(h: TypesenseHit, scope: SearchScope, mask: PriceMask): SearchHit {
  const highlights = highlightsOf(h);
  const textMatch = textMatchOf(h);
  const geo =
    h.geo_distance_meters && typeof h.geo_distance_meters === "object"
      ? Object.fromEntries(
          Object.entries(h.geo_distance_meters)
            .map(([k, v]) => [k, Number(v)])
            .filter(([, v]) => Number.isFinite(v)),
        )
      : undefined;
  return {
    // A private price the reader may not see is blanked here, as in the PostgreSQL engine.
    document: maskDocument(mask, h.document?.tenant_id, documentOf(h.document)),
    highlights,
    highlight: Object.fromEntries(highlights.map((x) => [x.field, { snippet: x.snippet, matched_tokens: x.matched_tokens }])),
    ...(textMatch !== undefined ? { text_match: textMatch } : {}),
    ...(geo && Object.keys(geo).length ? { geo_distance_meters: geo } : {}),
    isNetworkListing: h.document?.tenant_id !== scope.tenantId,
  };
}

/**
 * The stored document as the PostgreSQL engine returns it: access fields removed, `location_latitude/longitude`
 * back from `location`, and the registry fields that were null (dropped at indexing) back as null.
 */
export function documentOf(doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc ?? {})) {
    if (k === GEO_FIELD || INTERNAL_FIELD_NAMES.includes(k)) continue;
    out[k] = v;
  }
  for (const f of SEARCH_FIELDS) if (!(f.name in out)) out[f.name] = null;
  const loc = doc?.[GEO_FIELD];
  const ok = Array.isArray(loc) && loc.length === 2 && loc.every((x) => typeof x === "number" && Number.isFinite(x));
  out[LAT_COLUMN] = ok ? (loc as number[])[0] : null;
  out[LNG_COLUMN] = ok ? (loc as number[])[1] : null;
  return out;
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const E_START = escapeHtml(HIGHLIGHT_START);
const E_END = escapeHtml(HIGHLIGHT_END);

/**
 * Typesense returns the field text raw around its tags; the PostgreSQL engine HTML-escapes it. Escape everything,
 * then bring back our own two tags, so a title such as `<img onerror=...>` is inert in both engines.
 */
export function safeSnippet(s: string): string {
  return escapeHtml(s).split(E_START).join(HIGHLIGHT_START).split(E_END).join(HIGHLIGHT_END);
}

const flatTokens = (m: unknown): string[] => (Array.isArray(m) ? m.flat().filter((t): t is string => typeof t === "string") : []);

/**
 * `highlights` (v1) as `{field, snippet, matched_tokens}`: a `string[]` field's matching element snippets are
 * joined with ", " (as the PostgreSQL engine joins the elements) and its token lists flattened. Without v1 (a
 * server with `enable_highlight_v1` off) the v2 `highlight` object is used, matched fields only.
 */
function highlightsOf(h: TypesenseHit): Highlight[] {
  const out: Highlight[] = [];
  if (Array.isArray(h.highlights)) {
    for (const x of h.highlights) {
      const snippet = typeof x.snippet === "string" ? x.snippet : Array.isArray(x.snippets) ? x.snippets.join(", ") : undefined;
      if (snippet === undefined || typeof x.field !== "string") continue;
      out.push({ field: x.field, snippet: safeSnippet(snippet), matched_tokens: flatTokens(x.matched_tokens) });
    }
    return out;
  }
  for (const [field, v] of Object.entries(h.highlight ?? {})) {
    const entries = (Array.isArray(v) ? v : [v]) as HighlightV2Entry[];
    const matched = entries.filter((e) => e && typeof e.snippet === "string" && flatTokens(e.matched_tokens).length > 0);
    if (!matched.length) continue;
    out.push({ field, snippet: safeSnippet(matched.map((e) => e.snippet).join(", ")), matched_tokens: matched.flatMap((e) => flatTokens(e.matched_tokens)) });
  }
  return out;
}

/**
 * Typesense's `text_match` is an opaque uint64 (beyond 2^53, so JSON.parse already rounded it). The exact value
 * is in `text_match_info.score` as a string: shifted right by 11 bits it fits in 53 bits, keeps the order, and
 * is an exact integer. We promise ordering only (search-language.md §5).
 */
export function textMatchOf(h: Pick<TypesenseHit, "text_match" | "text_match_info">): number | undefined {
  const score = h.text_match_info?.score;
  if (typeof score === "string" && /^\d{1,20}$/.test(score)) {
    const v = BigInt(score);
    if (v < 2n ** 64n) return Number(v >> 11n);
  }
  if (typeof h.text_match === "number" && Number.isFinite(h.text_match) && h.text_match >= 0) {
    return Math.min(Math.floor(h.text_match / 2048), 2 ** 53);
  }
  return undefined;
}

/** `price_public` -> `price`: a facet is reported under the field the caller asked for. */
const askedField = (name: string) => (PUBLIC_PRICE_FIELD_NAMES.includes(name) ? name.replace(/_public$/, "") : name);

function facet(f: TypesenseFacetCount): FacetCount {
  const counts = (f.counts ?? []).map((c) => ({
    count: toInt(c.count),
    highlighted: String(c.highlighted ?? c.value),
    value: String(c.value),
  }));
  const s = f.stats ?? {};
  const stats: FacetCount["stats"] = { total_values: typeof s.total_values === "number" ? s.total_values : counts.length };
  for (const k of ["min", "max", "sum", "avg"] as const) if (typeof s[k] === "number" && Number.isFinite(s[k])) stats[k] = s[k];
  return { field_name: askedField(String(f.field_name)), sampled: false, counts, stats };
}

function toInt(v: unknown): number {
  const n = Number(v);
  return Number.isFinite(n) ? Math.round(n) : 0;
}

// ---------------------------------------------------------------- errors

/**
 * A Typesense failure that is not the caller's fault: 5xx, a timeout, a refused connection, a bad API key, a
 * missing collection. It is not a `DomainError`, so the HTTP layer answers 500 (and logs it) instead of blaming the
 * request; `status` is Typesense's HTTP status when there was one.
 */
export class TypesenseServiceError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "TypesenseServiceError";
  }
}

/** `Request failed with HTTP code 400 | Server said: <message>` -> `<message>`. */
export function serverMessage(message: string): string {
  const at = message.indexOf("Server said: ");
  return at >= 0 ? message.slice(at + "Server said: ".length) : message;
}

/**
 * Status + message -> the error to throw. The request's fault (400, 422, and the 404s about a field named in
 * the request) becomes the same 400 `invalid_search` the parameter validation gives; anything else is a
 * `TypesenseServiceError` (a 500).
 */
export function searchErrorFor(status: number | undefined, message: string, cause?: unknown): Error {
  const isRequestFault = status === 400 || status === 422 || (status === 404 && /^Could not find a (facet |filter )?field named/.test(message));
  if (isRequestFault) return invalid(message, "invalid_search");
  const what = status === undefined ? "Typesense is unreachable" : `Typesense answered HTTP ${status}`;
  return new TypesenseServiceError(`${what}: ${message}`, status, { cause });
}

/** Whatever the client threw -> the error to throw (see `searchErrorFor`). */
export function toSearchError(e: unknown): Error {
  if (e instanceof Errors.TypesenseError && typeof e.httpStatus === "number") {
    return searchErrorFor(e.httpStatus, serverMessage(e.message), e);
  }
  const message = e instanceof Error ? e.message : String(e);
  return searchErrorFor(undefined, message, e);
}

/** For writes (import, delete): nothing there is the caller's request, so every failure is a service error. */
export function toServiceError(e: unknown): TypesenseServiceError {
  const status = e instanceof Errors.TypesenseError && typeof e.httpStatus === "number" ? e.httpStatus : undefined;
  const message = e instanceof Error ? serverMessage(e.message) : String(e);
  const what = status === undefined ? "Typesense is unreachable" : `Typesense answered HTTP ${status}`;
  return new TypesenseServiceError(`${what}: ${message}`, status, { cause: e });
}
