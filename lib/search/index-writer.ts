import type { EnsureResult } from "./typesense/collection-schema";
import type { IndexedDocument } from "./typesense/typesense-engine";
import { searchBackends } from "./search-backends";

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

/** The configured writer: Typesense when TYPESENSE_URL and TYPESENSE_API_KEY are set, else none. */
export async function searchIndexWriter(): Promise<SearchIndexWriter | null> {
  const slot = searchBackends();
  if (slot.writer !== undefined) return slot.writer;
  const { config } = await import("../config");
  const c = config();
  if (c.TYPESENSE_URL && c.TYPESENSE_API_KEY) {
    const { TypesenseSearchEngine } = await import("./typesense/typesense-engine");
    slot.writer = new TypesenseSearchEngine(c.TYPESENSE_URL, c.TYPESENSE_API_KEY);
  } else {
    slot.writer = null;
  }
  return slot.writer;
}

/** Tests switch engines by changing the environment; this drops the process-wide writer and engine. */
export function resetSearchBackendsForTests(): void {
  searchBackends().writer = undefined;
  searchBackends().engine = undefined;
}
