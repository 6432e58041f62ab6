import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import type { SearchEngine, SearchRequest, SearchResult, SearchScope } from "../engine";
import { priceMaskOf } from "../price-visibility";
import { documents, searchResult, type HitRow } from "./hits";
import { facetCounts } from "./facets-sql";
import { priceHiddenSql, userFilterSql } from "./price-sql";
import { scopeSql } from "./scope-sql";
import { distanceSql, orderBySql } from "./sort-sql";
import { textQuery, typoPredicate } from "./text-sql";
import { indexChangedSince } from "../index-version";
import { fieldByName } from "../fields";

/** A text predicate and its rank; `candidates`, for the full-text match, is the ranked matches as `c`. */
type TextMatch = { where: SQL; rank: SQL; candidates?: SQL };

/** `out_of` per scope, briefly cached: it counts the whole tenant and moves slowly. */
const outOfCache = new Map<string, { n: number; at: number }>();
const OUT_OF_TTL_MS = 5_000;

/**
 * Whether the text-only path applies: the tenant's own listings with every access, no filter, and
 * the default order (relevance, then newest). The tenant's documents and vectors are written
 * together (`reindexListings`), so `search_texts.tenant_id` is the document's tenant.
 */
function textOnly(scope: SearchScope, req: SearchRequest, hidden: SQL | null): boolean {
  return (
    scope.access.kind === "all" &&
    !scope.networkIds.length &&
    !scope.publicOnly &&
    !hidden &&
    !req.filters.length &&
    req.sort.every((k) => k.kind === "text_match" || (k.kind === "field" && k.field === "createdAt"))
  );
}

/** The default engine: search documents in PostgreSQL (or PGlite), filters compiled to SQL. */
export class PostgresSearchEngine implements SearchEngine {
  readonly name = "postgres" as const;
  constructor(private readonly db: () => Promise<Db>) {}

  async search(scope: SearchScope, req: SearchRequest): Promise<SearchResult> {
    const started = performance.now();
    const db = await this.db();
    const scopeWhere = scopeSql(scope);
    // Prices the reader may not see read as missing in filters, sorts and facets (price-visibility.ts).
    const mask = priceMaskOf(scope);
    const hidden = priceHiddenSql(mask);
    // Scope first, then the caller's filters, each in its own parentheses: nothing can widen the scope.
    const filterWhere = req.filters.length
      ? sql.join(
          req.filters.map((f) => sql`(${userFilterSql(f, hidden)})`),
          sql` AND `,
        )
      : sql`true`;
    const base = sql`${scopeWhere} AND ${filterWhere}`;

    const tsq = textQuery(req);
    // Naming the tenant on the vectors' side lets the (tenant, tsv) index skip other tenants' matches.
    const tsvTenant = scope.networkIds.length ? sql`` : sql` AND d.tsv_tenant_id = ${scope.tenantId}::uuid`;
    // The page ranks candidates read from the text table alone, so its sort never carries the vectors
    // (`offset 0` keeps PostgreSQL from pulling the subquery up and sorting the wide rows again).
    const candidates = tsq
      ? sql`(select t.listing_id, ts_rank_cd(t.tsv, ${tsq}) as rank from search_texts t
          where t.tsv @@ ${tsq}${scope.networkIds.length ? sql`` : sql` AND t.tenant_id = ${scope.tenantId}::uuid`} offset 0) c`
      : undefined;
    let text: TextMatch | null = tsq ? { where: sql`d.tsv @@ ${tsq}${tsvTenant}`, rank: sql`ts_rank_cd(d.tsv, ${tsq})`, candidates } : null;
    // Without text there is no typo retry, so facets run beside the page, and when they group a
    // scalar field their pass also counts the matches (no separate count).
    const earlyFacets = text ? null : facetCounts(db, base, req.facetBy, req.maxFacetValues, hidden);
    // If the page query fails first, this rejection must not go unhandled (it would end the process).
    earlyFacets?.catch(() => {});
    const countsInFacets = !text && req.facetBy.some((n) => fieldByName(n)!.type !== "string[]");
    let page =
      tsq && textOnly(scope, req, hidden)
        ? await this.textOnlyPage(db, scope.tenantId, tsq, req)
        : await this.page(db, base, text, req, hidden, !countsInFacets && req.total !== false);
    // Nothing found (no total asked: no rows) is when the typo retry runs.
    if ((page.found === 0 || (page.found === null && req.total === false && page.rows.length === 0)) && text) {
      const typo = typoPredicate(req);
      if (typo) {
        text = typo;
        page = await this.page(db, base, text, req, hidden, true);
      }
    }
    const where = text ? sql`${base} AND ${text.where}` : base;
    const [facetResult, outOf, docs] = await Promise.all([
      earlyFacets ?? facetCounts(db, where, req.facetBy, req.maxFacetValues, hidden),
      this.outOf(db, scope, scopeWhere),
      documents(
        db,
        page.rows.map((r) => r.listing_id),
      ),
    ]);
    const facets = facetResult.facets;
    const found = page.found ?? facetResult.total ?? (req.total === false ? page.rows.length : 0);

    return searchResult(db, scope, req, started, { rows: page.rows, facets, found, outOf, docs });
  }

  /**
   * The page (ids, rank, distance) and the total. With text, one statement: every match is ranked
   * anyway, so the total is a window count over the same pass. Without text, two statements side by
   * side: the page stops after `per_page` rows of an ordered scan, the count touches only the narrow
   * table (the view's joins are dropped); `count: false` when the facets' pass counts instead.
   */
  private async page(db: Db, base: SQL, text: TextMatch | null, req: SearchRequest, hidden: SQL | null, count: boolean) {
    const geoKey = req.sort.find((k) => k.kind === "geo");
    const where = text ? sql`${base} AND ${text.where}` : base;
    const select = (extra: SQL) => sql`
            select d.listing_id, d.tenant_id, ${text?.candidates ? sql`c.rank` : text ? text.rank : sql`null::float8`} as rank,
                   ${geoKey && geoKey.kind === "geo" ? distanceSql(geoKey.lat, geoKey.lng) : sql`null::float8`} as geo_m${extra}
            from ${text?.candidates ? sql`${text.candidates} join search_index d on d.listing_id = c.listing_id` : sql`search_index d`}
            where ${text?.candidates ? base : where}
            order by ${orderBySql(req.sort, hidden)}
            limit ${req.perPage} offset ${(req.page - 1) * req.perPage}`;
    if (text && count && req.perPage > 0) {
      const rows = rowsOf<HitRow & { found: number | string }>(await db.execute(select(sql`, count(*) over () as found`)));
      return { rows, found: await this.windowTotal(rows, req, () => this.count(db, where)) };
    }
    const pageQuery = req.perPage === 0 ? Promise.resolve([] as HitRow[]) : db.execute(select(sql``)).then((res) => rowsOf<HitRow>(res));
    const [rows, found] = await Promise.all([pageQuery, count ? this.count(db, where) : Promise.resolve(null)]);
    return { rows, found };
  }

  /**
   * Text over the tenant's own listings with no filter, access rule or sort other than relevance and
   * recency: the text table alone answers it (it carries the tenant and the creation time), so the
   * ranked matches are never joined to the documents.
   */
  private async textOnlyPage(db: Db, tenantId: string, tsq: SQL, req: SearchRequest) {
    if (req.perPage === 0) return { rows: [] as HitRow[], found: await this.count(db, sql`d.tsv_tenant_id = ${tenantId}::uuid AND d.tsv @@ ${tsq}`) };
    const res = await db.execute(sql`
      select d.listing_id, d.tenant_id, d.rank, null::float8 as geo_m, count(*) over () as found from (
        select t.listing_id, t.tenant_id, t.created_at, ts_rank_cd(t.tsv, ${tsq}) as rank
        from search_texts t where t.tenant_id = ${tenantId}::uuid and t.tsv @@ ${tsq}
      ) d
      order by ${orderBySql(req.sort)}
      limit ${req.perPage} offset ${(req.page - 1) * req.perPage}`);
    const rows = rowsOf<HitRow & { found: number | string }>(res);
    const total = () =>
      db
        .execute(sql`select count(*) as n from search_texts t where t.tenant_id = ${tenantId}::uuid and t.tsv @@ ${tsq}`)
        .then((r) => Number(rowsOf<{ n: number | string }>(r)[0].n));
    return { rows, found: await this.windowTotal(rows, req, total) };
  }

  /** The window count rides on the page's rows; a page past the end has none, so it is counted apart. */
  private async windowTotal(rows: { found: number | string }[], req: SearchRequest, count: () => Promise<number>): Promise<number> {
    if (rows.length) return Number(rows[0].found);
    return req.page > 1 ? count() : 0;
  }

  private async count(db: Db, where: SQL): Promise<number> {
    const [r] = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from search_index d where ${where}`));
    return Number(r.n);
  }

  private async outOf(db: Db, scope: SearchScope, scopeWhere: SQL): Promise<number> {
    const key = JSON.stringify(scope);
    const hit = outOfCache.get(key);
    if (hit && Date.now() - hit.at < OUT_OF_TTL_MS && !indexChangedSince(scope.tenantId, hit.at)) return hit.n;
    const n = await this.count(db, scopeWhere);
    outOfCache.set(key, { n, at: Date.now() });
    return n;
  }
}
