import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { logger } from "../../log/logger";
import type { SearchEngine, SearchRequest, SearchResult, SearchScope } from "../engine";
import { fieldByName } from "../fields";
import type { FilterNode } from "../filter";
import { searchResult } from "../postgres/hits";
import { tsqueryText } from "../postgres/text-sql";
import { isBinary } from "../price-visibility";
import { narrowAll } from "./evaluate";
import { QueryView, scopeMask, type Mask } from "./query-view";
import { memoryFacets } from "./facets";
import { applyChanges, documentCount, loadTenantIndex, RemovalsPruned, searchStateOf } from "./load";
import { pageOf } from "./order";
import { isMemoryField, type TenantIndex } from "./tenant-index";
import { parseTsquery, textMatches, type TextOperand } from "./text-match";

export type MemoryOptions = {
  /** Tenants with fewer documents stay on PostgreSQL, which answers them quickly anyway. */
  minDocs: number;
  /** Documents held by all tenants' indexes together; the least recently searched tenant goes first. */
  maxDocs: number;
};

type TenantState = { kind: "small"; checkedAt: number } | { kind: "loading" } | { kind: "ready"; ix: TenantIndex; refreshing: Promise<void> | null };

/** How long a tenant found too small (or whose load failed) is left on PostgreSQL before a new look. */
const RECHECK_MS = 5 * 60_000;

/**
 * Searches a large tenant's listings from memory: filters, facets, counts and the page's order are
 * computed over the tenant's columns (`tenant-index.ts`), and only the page's stored documents are
 * read from PostgreSQL, by primary key. Before each search the tenant's search version is read (one
 * primary-key query) and the rows committed since are applied, so an answer is never older than the
 * last commit, from whichever process. Text queries that are a conjunction of words (the last one
 * a prefix) match and rank on the tenant's vectors in memory (text-match.ts). What it does not do
 * goes to PostgreSQL unchanged: exclusions and phrases, text that finds nothing (the typo retry),
 * partner networks, sorting by a string field, tenants below `minDocs`, and any tenant while its
 * index loads (in the background, on its first search).
 */
export class MemorySearchEngine implements SearchEngine {
  readonly name = "postgres" as const;
  private readonly tenants = new Map<string, TenantState>();
  /** Query text → its operands as PostgreSQL parses it (null: not a plain conjunction), bounded. */
  private readonly tsqueries = new Map<string, TextOperand[] | null>();

  constructor(
    private readonly fallback: SearchEngine,
    private readonly db: () => Promise<Db>,
    private readonly opts: MemoryOptions,
  ) {}

  async search(scope: SearchScope, req: SearchRequest): Promise<SearchResult> {
    if (!servable(scope, req)) return this.fallback.search(scope, req);
    const db = await this.db();
    const ix = await this.index(db, scope.tenantId);
    if (!ix) return this.fallback.search(scope, req);
    const started = performance.now();
    const text = tsqueryText(req);
    const ops = text === null ? null : await this.operands(db, text);
    if (text !== null && !ops) return this.fallback.search(scope, req);
    const view = new QueryView(ix, scope);
    const inScope = scopeMask(view, scope);
    let matches = narrowAll(view, req.filters, inScope);
    let rank: Float64Array | null = null;
    if (ops) {
      const found = textMatches(ix.text, matches, view.n, ops);
      // Nothing found is when PostgreSQL retries with typo tolerance (trigrams): it answers that.
      if (!found.matches.length) return this.fallback.search(scope, req);
      [matches, rank] = [found.matches, found.rank];
    }
    const rows = req.perPage > 0 ? pageOf(view, matches, req.sort, (req.page - 1) * req.perPage, req.perPage, rank) : [];
    // The same retry runs for an empty page when no total is asked (postgres-engine.ts).
    if (ops && !rows.length && req.total === false) return this.fallback.search(scope, req);
    const facets = memoryFacets(view, matches, req.facetBy, req.maxFacetValues);
    // As the PostgreSQL engine: with no total asked and no scalar facet to count, `found` is the page's size.
    const counted = req.total !== false || req.facetBy.some((n) => fieldByName(n)!.type !== "string[]");
    return searchResult(db, scope, req, started, { rows, facets, found: counted ? matches.length : rows.length, outOf: outOf(ix, scope, inScope) });
  }

  /**
   * The operands of the query's tsquery, parsed by PostgreSQL itself (its stemmer, stop words and
   * tokenizer: one short statement per distinct query text, then remembered).
   */
  private async operands(db: Db, text: string): Promise<TextOperand[] | null> {
    const known = this.tsqueries.get(text);
    if (known !== undefined) return known;
    const [r] = rowsOf<{ q: string }>(await db.execute(sql`select to_tsquery('pt_unaccent', ${text})::text as q`));
    const ops = parseTsquery(r.q);
    if (this.tsqueries.size >= 10_000) this.tsqueries.clear();
    this.tsqueries.set(text, ops);
    return ops;
  }

  /** Loads a tenant's index now, whatever its size (benchmarks and tests). */
  async preload(tenantId: string): Promise<TenantIndex> {
    const ix = await loadTenantIndex(await this.db(), tenantId);
    this.tenants.set(tenantId, { kind: "ready", ix, refreshing: null });
    this.evict(tenantId);
    return ix;
  }

  /** The tenant's index, current as of the last commit; null when PostgreSQL should answer. */
  private async index(db: Db, tenantId: string): Promise<TenantIndex | null> {
    const st = this.tenants.get(tenantId);
    if (!st || (st.kind === "small" && Date.now() - st.checkedAt > RECHECK_MS)) {
      this.tenants.set(tenantId, { kind: "loading" });
      void this.backgroundLoad(db, tenantId);
      return null;
    }
    if (st.kind !== "ready") return null;
    // Most recently used last: eviction takes from the front.
    this.tenants.delete(tenantId);
    this.tenants.set(tenantId, st);
    try {
      const { version, pruned } = await searchStateOf(db, tenantId);
      if (version < 0) {
        // The tenant is gone: nothing of it stays in memory.
        this.tenants.delete(tenantId);
        return null;
      }
      // Removals this index never applied were pruned (prune-removals.ts): load it afresh.
      if (st.ix.version < pruned) return this.reload(db, tenantId, st);
      while (st.ix.version < version) {
        st.refreshing ??= applyChanges(db, st.ix, version).finally(() => (st.refreshing = null));
        await st.refreshing;
      }
      return st.ix;
    } catch (err) {
      // Pruned between the version read and the removals read: same as above.
      if (err instanceof RemovalsPruned) return this.reload(db, tenantId, st);
      // PostgreSQL answers this search (and reports its own error if the database is down). A
      // refresh changes the index only after its reads succeed, so the next search retries it.
      logger().warn({ err, tenantId }, "search: in-memory index refresh failed; PostgreSQL answers");
      return null;
    }
  }

  /** Loads the tenant again in the background, once: only the search still holding `st` starts it. */
  private reload(db: Db, tenantId: string, st: TenantState): null {
    if (this.tenants.get(tenantId) === st) {
      this.tenants.set(tenantId, { kind: "loading" });
      void this.backgroundLoad(db, tenantId);
    }
    return null;
  }

  private async backgroundLoad(db: Db, tenantId: string): Promise<void> {
    try {
      const n = await documentCount(db, tenantId);
      if (n < Math.max(1, this.opts.minDocs) || n > this.opts.maxDocs) {
        this.tenants.set(tenantId, { kind: "small", checkedAt: Date.now() });
        return;
      }
      const t0 = performance.now();
      const ix = await loadTenantIndex(db, tenantId, n);
      this.tenants.set(tenantId, { kind: "ready", ix, refreshing: null });
      this.evict(tenantId);
      logger().info({ tenantId, documents: ix.count, ms: Math.round(performance.now() - t0) }, "search: in-memory index loaded");
    } catch (err) {
      this.tenants.set(tenantId, { kind: "small", checkedAt: Date.now() });
      logger().warn({ err, tenantId }, "search: in-memory index failed to load; PostgreSQL answers this tenant");
    }
  }

  /** Drops the least recently searched tenants until the documents held fit `maxDocs` (never `keep`). */
  private evict(keep: string): void {
    let held = 0;
    for (const st of this.tenants.values()) if (st.kind === "ready") held += st.ix.count;
    for (const [id, st] of this.tenants) {
      if (held <= this.opts.maxDocs) break;
      if (id === keep || st.kind !== "ready") continue;
      held -= st.ix.count;
      this.tenants.delete(id);
    }
  }
}

/** What the memory engine answers exactly as PostgreSQL does; anything else goes to it. */
function servable(scope: SearchScope, req: SearchRequest): boolean {
  if (scope.networkIds.length) return false;
  if (!req.facetBy.every(isMemoryField)) return false;
  for (const k of req.sort) {
    // Strings sort by the database's collation, which only PostgreSQL knows.
    if (k.kind === "field" && (!isMemoryField(k.field) || /^string/.test(fieldByName(k.field)!.type))) return false;
  }
  return req.filters.every(leavesServable);
}

function leavesServable(n: FilterNode): boolean {
  if (isBinary(n)) return leavesServable(n.left) && leavesServable(n.right);
  if (n.kind === "id") return true;
  // PostgreSQL's point-in-polygon has a 1e-6 tolerance on edges; circles are computed the same in both.
  if (n.kind === "geo") return n.shapes.every((s) => s.type === "circle");
  if (!isMemoryField(n.field)) return false;
  // Doubles hold integers exactly up to 2^53; a larger int64 literal compares in PostgreSQL.
  if (n.kind === "number" && n.fieldType === "int64") {
    return n.items.every((it) => (it.op === "range" ? [it.min, it.max] : [it.value]).every((v) => Number.isSafeInteger(Number(v))));
  }
  return true;
}

/** The documents in scope (`out_of`), counted once per state of the index and scope. */
const outOfMemo = new WeakMap<TenantIndex, { changes: number; counts: Map<string, number> }>();
function outOf(ix: TenantIndex, scope: SearchScope, inScope: Mask): number {
  let memo = outOfMemo.get(ix);
  if (!memo || memo.changes !== ix.changes) outOfMemo.set(ix, (memo = { changes: ix.changes, counts: new Map() }));
  const key = JSON.stringify([scope.access, scope.publicOnly ?? null]);
  let n = memo.counts.get(key);
  if (n === undefined) memo.counts.set(key, (n = ones(inScope)));
  return n;
}

function ones(m: Mask): number {
  let n = 0;
  for (let i = 0; i < m.length; i++) n += m[i];
  return n;
}
