import { describe, expect, it } from "vitest";
import { CachedSearchEngine } from "../../../lib/search/cached-engine";
import type { SearchEngine, SearchRequest, SearchResult, SearchScope } from "../../../lib/search/engine";

const scope: SearchScope = { tenantId: "t", access: { kind: "all" }, networkIds: [] };
const req = { q: "*", words: [], queryBy: [], filters: [], sort: [], facetBy: [], maxFacetValues: 10, page: 1, perPage: 10 } as SearchRequest;

function counting(): SearchEngine & { calls: number } {
  const e = {
    name: "postgres" as const,
    calls: 0,
    async search(): Promise<SearchResult> {
      e.calls++;
      return {
        facet_counts: [],
        found: e.calls,
        hits: [],
        out_of: 0,
        page: 1,
        request_params: { collection_name: "listings", per_page: 10, q: "*" },
        search_cutoff: false,
        search_time_ms: 3,
      };
    },
  };
  return e;
}

describe("search result cache", () => {
  it("reuses a result while the scope's search version is unchanged", async () => {
    const inner = counting();
    let version = "1";
    const cached = new CachedSearchEngine(inner, async () => version, 60_000);
    expect((await cached.search(scope, req)).found).toBe(1);
    expect((await cached.search(scope, req)).found).toBe(1);
    expect(inner.calls).toBe(1);
    expect((await cached.search({ ...scope, tenantId: "u" }, req)).found).toBe(2);
    version = "2";
    expect((await cached.search(scope, req)).found).toBe(3);
    expect((await cached.search(scope, req)).found).toBe(3);
  });

  it("leaves a request with cache: false to the engine, and keeps nothing of it", async () => {
    const inner = counting();
    const cached = new CachedSearchEngine(inner, async () => "1", 60_000);
    const bulk = { ...req, cache: false as const };
    expect((await cached.search(scope, bulk)).found).toBe(1);
    expect((await cached.search(scope, bulk)).found).toBe(2);
    expect((await cached.search(scope, req)).found).toBe(3);
  });

  it("expires entries after the TTL", async () => {
    const inner = counting();
    const cached = new CachedSearchEngine(inner, async () => "1", 20);
    await cached.search(scope, req);
    await new Promise((r) => setTimeout(r, 40));
    await cached.search(scope, req);
    expect(inner.calls).toBe(2);
  });
});
