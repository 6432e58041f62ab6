import { LRUCache } from "lru-cache";
import type { SearchEngine, SearchRequest, SearchResult, SearchScope } from "./engine";
import { indexVersion } from "./index-version";

/**
 * Search result cache in front of an engine (Typesense has one too). An entry is used only while
 * this process has not changed any search document since it was stored, so a write is visible to
 * the next search at once; changes made by another server process show within the TTL
 * (`SEARCH_CACHE_TTL_MS`, 0 turns the cache off).
 */
export class CachedSearchEngine implements SearchEngine {
  readonly name: SearchEngine["name"];
  private readonly cache: LRUCache<string, { result: SearchResult; version: number }>;

  constructor(private readonly inner: SearchEngine, ttlMs: number, max = 2000) {
    this.name = inner.name;
    this.cache = new LRUCache({ max, ttl: Math.max(ttlMs, 1) });
  }

  async search(scope: SearchScope, req: SearchRequest): Promise<SearchResult> {
    const key = JSON.stringify([scope, req]);
    const version = indexVersion();
    const hit = this.cache.get(key);
    if (hit && hit.version === version) return { ...hit.result, search_time_ms: 0 };
    const result = await this.inner.search(scope, req);
    // Stored under the version read before the search: a change during it makes the entry stale.
    this.cache.set(key, { result, version });
    return result;
  }
}
