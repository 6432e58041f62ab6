import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import type { FacetCount, SearchHit, SearchRequest, SearchResult, SearchScope } from "../engine";
import { highlightText } from "../highlight";
import { docColumns, documentFromRow } from "../stored-document";
import { maskDocument, priceMaskOf } from "../price-visibility";

/** A page row: the listing, its tenant, its rank (text searches) and distance (geo sorts). */
export type HitRow = { listing_id: string; tenant_id: string; rank: number | null; geo_m: number | null };

/**
 * The result of a search from its page rows, facets and counts: the page's stored documents are
 * read by primary key, prices the reader may not see are blanked, and highlights, `text_match` and
 * distances are added. Every engine over PostgreSQL's tables answers through this, so they agree.
 */
export async function searchResult(
  db: Db,
  scope: SearchScope,
  req: SearchRequest,
  started: number,
  page: { rows: HitRow[]; facets: FacetCount[]; found: number; outOf: number; docs?: Map<string, Record<string, unknown>> },
): Promise<SearchResult> {
  const mask = priceMaskOf(scope);
  const docs =
    page.docs ??
    (await documents(
      db,
      page.rows.map((r) => r.listing_id),
    ));
  const showTextMatch = req.sort.some((k) => k.kind === "text_match") && req.words.length > 0;
  const geoKey = req.sort.find((k) => k.kind === "geo");
  const words = req.words.filter((w) => !w.exclude).flatMap((w) => w.text.split(" "));
  const lastIsPrefix = req.words.length > 0 && !req.words[req.words.length - 1].phrase;
  const hits: SearchHit[] = page.rows.map((r) => {
    const document = maskDocument(mask, r.tenant_id, docs.get(r.listing_id) ?? { id: r.listing_id });
    const highlights = req.queryBy
      .map((field) => {
        const v = document[field];
        const h = typeof v === "string" ? highlightText(v, words, lastIsPrefix) : Array.isArray(v) ? highlightText(v.join(", "), words, lastIsPrefix) : null;
        return h ? { field, ...h } : null;
      })
      .filter((h): h is NonNullable<typeof h> => h !== null);
    return {
      document,
      highlights,
      highlight: Object.fromEntries(highlights.map((h) => [h.field, { snippet: h.snippet, matched_tokens: h.matched_tokens }])),
      ...(showTextMatch ? { text_match: Math.round(Number(r.rank ?? 0) * 1e9) } : {}),
      ...(geoKey && r.geo_m !== null ? { geo_distance_meters: { location: Math.round(Number(r.geo_m)) } } : {}),
      isNetworkListing: r.tenant_id !== scope.tenantId,
    };
  });
  return {
    facet_counts: page.facets,
    found: page.found,
    hits,
    out_of: page.outOf,
    page: req.page,
    request_params: { collection_name: "listings", per_page: req.perPage, q: req.q },
    search_cutoff: false,
    search_time_ms: Math.round(performance.now() - started),
  };
}

/** Stored documents of the page's hits, read by primary key. */
export async function documents(db: Db, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
  if (!ids.length) return new Map();
  const res = await db.execute(
    sql`select ${docColumns("d")} from search_index d where d.listing_id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return new Map(rowsOf<Record<string, unknown>>(res).map((r) => [String(r.listing_id), documentFromRow(r)]));
}
