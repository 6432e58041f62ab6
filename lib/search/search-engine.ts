import { getDb } from "../../db/client";
import type { SearchEngine } from "./engine";
import { TimedSearchEngine } from "./timed-engine";
import { CachedSearchEngine } from "./cached-engine";
import { scopeVersion } from "./index-version";
import { PostgresSearchEngine } from "./postgres/postgres-engine";
import { searchBackends } from "./search-backends";

const g = searchBackends();

/**
 * PostgreSQL by default, with large tenants searched from memory (`memory/memory-engine.ts`);
 * Typesense when TYPESENSE_URL and TYPESENSE_API_KEY are set.
 */
export async function searchEngine(): Promise<SearchEngine> {
  if (g.engine) return g.engine;
  const { config } = await import("../config");
  const c = config();
  if (c.TYPESENSE_URL && c.TYPESENSE_API_KEY) {
    const { TypesenseSearchEngine } = await import("./typesense/typesense-engine");
    g.engine = new TypesenseSearchEngine(c.TYPESENSE_URL, c.TYPESENSE_API_KEY);
  } else if (c.SEARCH_MEMORY_MAX_DOCS > 0) {
    const { MemorySearchEngine } = await import("./memory/memory-engine");
    g.engine = new MemorySearchEngine(new PostgresSearchEngine(getDb), getDb, {
      minDocs: c.SEARCH_MEMORY_MIN_DOCS,
      maxDocs: c.SEARCH_MEMORY_MAX_DOCS,
    });
  } else {
    g.engine = new PostgresSearchEngine(getDb);
  }
  if (c.SEARCH_CACHE_TTL_MS > 0) {
    g.engine = new CachedSearchEngine(g.engine, async (scope) => scopeVersion(await getDb(), scope), c.SEARCH_CACHE_TTL_MS);
  }
  g.engine = new TimedSearchEngine(g.engine);
  return g.engine!;
}
