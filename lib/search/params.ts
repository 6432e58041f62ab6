import { invalid } from "../errors/domain-errors";
import type { SearchRequest, SortKey } from "./engine";
import { fieldByName, GEO_FIELD, isSortable, TEXT_WEIGHTS } from "./fields";
import { normalizeTokens, parseFilter, ParseError, toDomainError, type FilterNode, type FilterSchema } from "./filter";
import { FILTER_SCHEMA } from "./fields";

/** Typesense-style parameters as received (query string or JSON body). */
export type RawSearchParams = {
  q?: string;
  query_by?: string;
  filter_by?: string;
  sort_by?: string;
  facet_by?: string;
  max_facet_values?: number | string;
  page?: number | string;
  per_page?: number | string;
};

const err400 = (m: string) => invalid(m, "invalid_search");

/**
 * Validates the parameters with Typesense's rules and messages (search-language.md §2-§4) and
 * returns the engine-neutral request. `extraFilters` (typed filters, the site's criteria) are
 * ANDed with the user's `filter_by`.
 */
export type SearchParamOptions = {
  maxPerPage: number;
  defaultQueryBy?: string[];
  extraFilters?: FilterNode[];
  /**
   * A narrower field allow-list (public surfaces): `query_by`, `sort_by` and `facet_by` may only
   * name these fields, and `filter_by` is parsed against `filterSchema`. Others read as unknown.
   */
  fields?: { allowed: ReadonlySet<string>; filterSchema: FilterSchema };
};

export function toSearchRequest(p: RawSearchParams, opts: SearchParamOptions): SearchRequest {
  const allowed = opts.fields?.allowed;
  if (p.q === undefined || p.q === null) throw err400("Parameter `q` is required.");
  const q = String(p.q);
  const words = parseWords(q);
  const queryBy = parseQueryBy(p.query_by, opts.defaultQueryBy, allowed);
  if (words.length && !queryBy.length) throw err400("No search fields specified for the query.");
  const filters = [...(opts.extraFilters ?? [])];
  if (p.filter_by !== undefined && String(p.filter_by).trim()) {
    try {
      const ast = parseFilter(String(p.filter_by), opts.fields?.filterSchema ?? FILTER_SCHEMA);
      if (ast) filters.push(ast);
    } catch (e) {
      if (e instanceof ParseError) throw toDomainError(e);
      throw e;
    }
  }
  const page = unsignedInt(p.page, "page", 1) || 1;
  const perPage = unsignedInt(p.per_page, "per_page", 10);
  if (perPage > opts.maxPerPage) throw invalid(`Only upto ${opts.maxPerPage} hits can be fetched per page.`, "invalid_search");
  return {
    q,
    words,
    queryBy,
    filters,
    sort: parseSort(p.sort_by, words.length > 0, allowed),
    facetBy: parseFacetBy(p.facet_by, allowed),
    maxFacetValues: unsignedInt(p.max_facet_values, "max_facet_values", 10),
    page,
    perPage,
  };
}

function unsignedInt(v: unknown, name: string, fallback: number): number {
  if (v === undefined || v === null || v === "") return fallback;
  const s = String(v);
  if (!/^\d{1,9}$/.test(s)) throw err400(`Parameter \`${name}\` must be an unsigned integer.`);
  return Number(s);
}

/** `-word` excludes, `"a phrase"` needs the words together; everything else is normalized words. */
function parseWords(q: string): SearchRequest["words"] {
  if (q.trim() === "*" || q.trim() === "") return [];
  const out: SearchRequest["words"] = [];
  for (const m of q.matchAll(/(-?)"([^"]*)"|(-?)(\S+)/g)) {
    const exclude = Boolean(m[1] || m[3]);
    const text = m[2] ?? m[4];
    const tokens = normalizeTokens(text);
    if (m[2] !== undefined && tokens.length) out.push({ text: tokens.join(" "), exclude, phrase: true });
    else for (const t of tokens) out.push({ text: t, exclude, phrase: false });
  }
  return out.slice(0, 32);
}

/** The field, unless a narrower allow-list leaves it out (then it reads as unknown, as Typesense would say). */
const known = (name: string, allowed?: ReadonlySet<string>) => (allowed && !allowed.has(name) ? undefined : fieldByName(name));

function parseQueryBy(v: string | undefined, fallback: string[] = [], allowed?: ReadonlySet<string>): string[] {
  if (v === undefined || !String(v).trim()) return fallback;
  return String(v)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => {
      const f = known(name, allowed);
      if (!f) throw err400(`Could not find a field named \`${name}\` in the schema.`);
      if (f.type !== "string" && f.type !== "string[]") throw err400(`Field \`${name}\` should be a string or a string array.`);
      if (!TEXT_WEIGHTS[name]) throw err400(`Field \`${name}\` is not indexed for full-text search; use one of: ${Object.keys(TEXT_WEIGHTS).join(", ")}.`);
      return name;
    });
}

function parseSort(v: string | undefined, hasText: boolean, allowed?: ReadonlySet<string>): SortKey[] {
  const keys: SortKey[] = [];
  if (v !== undefined && String(v).trim()) {
    // Commas inside `location(lat, lng)` are not separators.
    const parts = String(v).match(/(?:[^,(]|\([^)]*\))+/g) ?? [];
    if (parts.length > 3) throw err400("Only upto 3 sort fields are allowed.");
    for (const raw of parts) {
      const m = /^\s*(.+?)\s*:\s*([A-Za-z]+)\s*$/.exec(raw);
      if (!m) throw err400("Parameter `sort_by` is malformed.");
      const dir = m[2].toLowerCase();
      if (dir !== "asc" && dir !== "desc") throw err400(`Order for field\` ${m[1]}\` should be either ASC or DESC.`);
      keys.push(sortKey(m[1], dir, allowed));
    }
  }
  const hasTextMatch = keys.some((k) => k.kind === "text_match");
  if (hasText && !hasTextMatch && keys.length < 3) keys.push({ kind: "text_match", dir: "desc" });
  if (!keys.length || (keys.length === 1 && keys[0].kind === "text_match")) keys.push({ kind: "field", field: "createdAt", dir: "desc" });
  return keys;
}

function sortKey(expr: string, dir: "asc" | "desc", allowed?: ReadonlySet<string>): SortKey {
  if (/^_text_match(\(.*\))?$/.test(expr)) return { kind: "text_match", dir };
  const geo = new RegExp(`^${GEO_FIELD}\\(\\s*(-?[\\d.]+)\\s*,\\s*(-?[\\d.]+)\\s*\\)$`).exec(expr);
  if (geo) {
    const lat = Number(geo[1]);
    const lng = Number(geo[2]);
    if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) throw err400(`Bad geo sort point \`${expr}\`: latitude and longitude out of range.`);
    return { kind: "geo", lat, lng, dir };
  }
  const f = known(expr, allowed);
  if (!f || !isSortable(f)) throw err400(`Could not find a field named \`${expr}\` in the schema for sorting.`);
  return { kind: "field", field: expr, dir };
}

function parseFacetBy(v: string | undefined, allowed?: ReadonlySet<string>): string[] {
  if (v === undefined || !String(v).trim()) return [];
  const names = String(v)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) {
    if (n.includes("(")) throw err400(`Facet options such as \`${n}\` are not supported; use plain field names.`);
    const f = known(n, allowed);
    if (!f?.facet) throw err400(`Could not find a facet field named \`${n}\` in the schema.`);
  }
  return [...new Set(names)].slice(0, 20);
}
