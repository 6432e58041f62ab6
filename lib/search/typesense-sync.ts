import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { jsonColumn, rowsOf } from "../../db/rows";
import { logger } from "../log/logger";
import { markIndexChanged } from "./index-version";
import { searchEngine } from "./search-engine";

/**
 * With Typesense as the engine, PostgreSQL's search documents stay the source of truth and are
 * pushed to Typesense after the transaction that changed them commits (pushing inside it would
 * send documents a rollback then undoes). A failed push is logged; `npm run search:reindex`
 * pushes everything again.
 */
const pending = new AsyncLocalStorage<Map<string, Set<string>>>();

/** Called by the indexer: remember what changed in this request. */
export function noteIndexed(tenantId: string, listingIds: string[]): void {
  const store = pending.getStore();
  if (!store) return;
  const set = store.get(tenantId) ?? new Set<string>();
  listingIds.forEach((id) => set.add(id));
  store.set(tenantId, set);
}

/** Runs a request; when it succeeds, the listings it reindexed are pushed to Typesense. */
export async function withSearchSync<T>(fn: () => Promise<T>, succeeded: (r: T) => boolean): Promise<T> {
  const store = new Map<string, Set<string>>();
  const result = await pending.run(store, fn);
  // After commit: a search that ran between the change and the commit may have cached old results.
  for (const tenantId of store.keys()) markIndexChanged(tenantId);
  if (store.size && succeeded(result)) {
    void pushToTypesense(store).catch((err) => logger().error({ err }, "could not push search documents to Typesense; run npm run search:reindex"));
  }
  return result;
}

type IndexRow = {
  listing_id: string; doc: unknown; assigned_to_id: string | null; created_by_id: string | null;
  property_created_by_id: string | null; network_ids: string[]; on_air: boolean;
};

/** Rows of `search_index` as the Typesense engine's `{doc, access}` pairs. */
export function toIndexed(tenantId: string, rows: IndexRow[]) {
  return rows.map((r) => ({
    doc: jsonColumn<Record<string, unknown>>(r.doc),
    access: {
      tenantId, assignedToId: r.assigned_to_id, createdById: r.created_by_id, propertyCreatedById: r.property_created_by_id,
      networkIds: r.network_ids, onAir: r.on_air,
    },
  }));
}

export const INDEX_ROW_COLUMNS = sql`listing_id, doc, assigned_to_id, created_by_id, property_created_by_id, network_ids, on_air`;

async function pushToTypesense(changes: Map<string, Set<string>>): Promise<void> {
  const engine = await searchEngine();
  if (engine.name !== "typesense") return;
  const ts = engine as unknown as {
    upsertDocuments(d: { doc: Record<string, unknown>; access: Record<string, unknown> }[]): Promise<unknown>;
    deleteDocuments(ids: string[]): Promise<unknown>;
  };
  const db = await getDb();
  for (const [tenantId, ids] of changes) {
    const list = [...ids];
    const rows = rowsOf<IndexRow>(
      await db.execute(sql`select ${INDEX_ROW_COLUMNS} from search_index
        where tenant_id = ${tenantId}::uuid and listing_id in (${sql.join(list.map((id) => sql`${id}::uuid`), sql`, `)})`),
    );
    await ts.upsertDocuments(toIndexed(tenantId, rows));
    const gone = list.filter((id) => !rows.some((r) => r.listing_id === id));
    if (gone.length) await ts.deleteDocuments(gone);
  }
}
