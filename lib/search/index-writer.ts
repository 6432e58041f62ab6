import type { EnsureResult } from "./typesense/collection-schema";
import type { IndexedDocument } from "./typesense/typesense-engine";

/**
 * Where search documents are pushed when an external engine serves the queries. PostgreSQL's
 * `search_index` is the source of truth and needs no writer; Typesense gets the committed documents
 * (after-commit) and the reindex command's full push. Separate from the query engine on purpose:
 * a cache or any other wrapper in front of queries must never hide the writes.
 */
export interface SearchIndexWriter {
  readonly name: "typesense";
  /** Creates the collection if missing (and adds fields the registry gained since). */
  ensureCollection(): Promise<EnsureResult>;
  upsertDocuments(docs: IndexedDocument[]): Promise<{ upserted: number }>;
  deleteDocuments(ids: string[]): Promise<{ deleted: number }>;
}

const g = globalThis as unknown as { __crmIndexWriter?: SearchIndexWriter | null };

/** The configured writer: Typesense when TYPESENSE_URL and TYPESENSE_API_KEY are set, else none. */
export async function searchIndexWriter(): Promise<SearchIndexWriter | null> {
  if (g.__crmIndexWriter !== undefined) return g.__crmIndexWriter;
  const { config } = await import("../config");
  const c = config();
  if (c.TYPESENSE_URL && c.TYPESENSE_API_KEY) {
    const { TypesenseSearchEngine } = await import("./typesense/typesense-engine");
    g.__crmIndexWriter = new TypesenseSearchEngine(c.TYPESENSE_URL, c.TYPESENSE_API_KEY);
  } else {
    g.__crmIndexWriter = null;
  }
  return g.__crmIndexWriter;
}

/** Tests switch engines by changing the environment; this drops the process-wide writer and engine. */
export function resetSearchBackendsForTests(): void {
  g.__crmIndexWriter = undefined;
  (globalThis as unknown as { __crmSearchEngine?: unknown }).__crmSearchEngine = undefined;
}
