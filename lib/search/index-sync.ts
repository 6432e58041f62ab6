import { sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { afterCommit } from "../../db/transaction";
import { markIndexChanged } from "./index-version";
import { searchIndexWriter, type SearchIndexWriter } from "./index-writer";
import { docColumns, documentFromRow } from "./stored-document";

/**
 * PostgreSQL's search documents are the source of truth. After the transaction that changed them
 * commits, this process's caches learn of it and, with an external engine configured, the
 * documents are pushed there (pushing inside the transaction would send documents a rollback then
 * undoes). A failed push is logged; `npm run search:reindex` pushes everything again.
 */
export function noteIndexed(tx: DbOrTx, tenantId: string, listingIds: string[]): void {
  // Now too: a search running beside this transaction must not keep a result cached past it.
  markIndexChanged(tenantId);
  const changes = afterCommit(tx, "search:index-changed", () => new Map<string, Set<string>>(), pushChanges);
  const set = changes.get(tenantId) ?? new Set<string>();
  listingIds.forEach((id) => {
    set.add(id);
  });
  changes.set(tenantId, set);
}

const ensured = new WeakMap<SearchIndexWriter, Promise<unknown>>();

async function pushChanges(changes: Map<string, Set<string>>): Promise<void> {
  for (const tenantId of changes.keys()) markIndexChanged(tenantId);
  const writer = await searchIndexWriter();
  if (!writer) return;
  // Once per process, so the first write on a new Typesense server creates the collection.
  if (!ensured.has(writer))
    ensured.set(
      writer,
      writer.ensureCollection().catch((err) => {
        ensured.delete(writer);
        throw err;
      }),
    );
  await ensured.get(writer);
  const db = await getDb();
  for (const [tenantId, ids] of changes) {
    const list = [...ids];
    if (!list.length) continue;
    const rows = rowsOf<IndexRow>(
      await db.execute(sql`select ${INDEX_ROW_COLUMNS} from search_index
        where tenant_id = ${tenantId}::uuid and listing_id in (${sql.join(
          list.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`),
    );
    if (rows.length) await writer.upsertDocuments(toIndexed(tenantId, rows));
    const gone = list.filter((id) => !rows.some((r) => r.listing_id === id));
    if (gone.length) await writer.deleteDocuments(gone);
  }
}

/** Every document of these tenants to the writer, in batches (the reindex command); returns the count. */
export async function pushAllDocuments(
  db: DbOrTx,
  writer: SearchIndexWriter,
  tenantIds: string[],
  onTenant?: (tenantId: string, pushed: number) => void,
): Promise<number> {
  await writer.ensureCollection();
  let total = 0;
  for (const tenantId of tenantIds) {
    const rows = rowsOf<IndexRow>(await db.execute(sql`select ${INDEX_ROW_COLUMNS} from search_index where tenant_id = ${tenantId}::uuid`));
    for (let i = 0; i < rows.length; i += 500) await writer.upsertDocuments(toIndexed(tenantId, rows.slice(i, i + 500)));
    total += rows.length;
    onTenant?.(tenantId, rows.length);
  }
  return total;
}

type IndexRow = Record<string, unknown> & {
  listing_id: string;
  assigned_to_id: string | null;
  created_by_id: string | null;
  property_created_by_id: string | null;
  network_ids: string[];
  on_air: boolean;
};

const INDEX_ROW_COLUMNS = sql`${docColumns("search_index")}, assigned_to_id, created_by_id, property_created_by_id, network_ids, on_air`;

/** Rows of `search_index` as the writer's `{doc, access}` pairs. */
function toIndexed(tenantId: string, rows: IndexRow[]) {
  return rows.map((r) => ({
    doc: documentFromRow(r),
    access: {
      tenantId,
      assignedToId: r.assigned_to_id,
      createdById: r.created_by_id,
      propertyCreatedById: r.property_created_by_id,
      networkIds: r.network_ids,
      onAir: r.on_air,
    },
  }));
}
