import { LRUCache } from "lru-cache";
import type { SearchEngine, SearchRequest, SearchResult, SearchScope } from "./engine";

/**
 * Search result cache in front of an engine (Typesense keeps one too). An entry is reused only
 * while the search version of every tenant the scope reads is unchanged: each transaction that
 * changes search documents bumps it, so a result is never older than the last commit, whichever
 * process made it. The TTL only bounds memory use (`SEARCH_CACHE_TTL_MS`, 0 turns the cache off).
 */
export class CachedSearchEngine implements SearchEngine {
  readonly name: SearchEngine["name"];
  private readonly cache: LRUCache<string, { result: SearchResult; version: string }>;

  constructor(
    private readonly inner: SearchEngine,
    private readonly versionOf: (scope: SearchScope) => Promise<string>,
    ttlMs: number,
    max = 5000,
  ) {
    this.name = inner.name;
    this.cache = new LRUCache({ max, ttl: Math.max(ttlMs, 1) });
  }

  async search(scope: SearchScope, req: SearchRequest): Promise<SearchResult> {
    if (req.cache === false) return this.inner.search(scope, req);
    const key = JSON.stringify([scope, req]);
    const version = await this.versionOf(scope);
    const hit = this.cache.get(key);
    if (hit && hit.version === version) return { ...hit.result, search_time_ms: 0 };
    const result = await this.inner.search(scope, req);
    // Stored under the version read before the search: a commit during it makes the entry stale.
    this.cache.set(key, { result, version });
    return result;
  }
}
