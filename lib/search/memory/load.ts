import { sql } from "drizzle-orm";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Db } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { columnOf, LAT_COLUMN, LNG_COLUMN } from "../fields";
import { MEMORY_FIELDS, TenantIndex } from "./tenant-index";

const PAGE = 5_000;

/** The columns an in-memory index reads from `search_documents` (as `d`), and the vector of `search_texts` (as `t`). */
const COLUMNS = sql.raw(
  [
    "listing_id",
    "assigned_to_id",
    "created_by_id",
    "property_created_by_id",
    LAT_COLUMN,
    LNG_COLUMN,
    // Not the token columns: the index tokenizes each distinct value itself (Dictionary.code).
    ...MEMORY_FIELDS.map((f) => columnOf(f.name)),
  ]
    .map((c) => `d."${c}"`)
    .concat("t.tsv::text as tsv")
    .join(", "),
);
/** Documents and their vectors are written in one transaction (index-listings.ts), so a version stamp covers both. */
const FROM = sql.raw("search_documents d left join search_texts t on t.listing_id = d.listing_id");

export async function searchVersionOf(db: Db, tenantId: string): Promise<number> {
  return (await searchStateOf(db, tenantId)).version;
}

/** The tenant's search version (-1: no such tenant) and the version its removals are pruned to. */
export async function searchStateOf(db: Db, tenantId: string): Promise<{ version: number; pruned: number }> {
  const [r] = rowsOf<{ v: string | number; p: string | number }>(
    await db.execute(sql`select search_version as v, search_removals_pruned as p from tenants where id = ${tenantId}::uuid`),
  );
  return r ? { version: Number(r.v), pruned: Number(r.p) } : { version: -1, pruned: 0 };
}

export async function documentCount(db: Db, tenantId: string): Promise<number> {
  const [r] = rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from search_documents where tenant_id = ${tenantId}::uuid`));
  return Number(r.n);
}

/**
 * Reads all of a tenant's documents, a page at a time (yielding between pages so requests keep
 * being served), then the changes committed meanwhile. The version is read first: every page sees
 * at least that state, and the catch-up applies whatever came after.
 */
export async function loadTenantIndex(db: Db, tenantId: string, count?: number): Promise<TenantIndex> {
  const version = await searchVersionOf(db, tenantId);
  // The count sizes the columns once (the caller may have it already); more documents just grow them.
  const ix = new TenantIndex(tenantId, Math.max(1024, count ?? (await documentCount(db, tenantId))));
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const rows = rowsOf<Record<string, unknown>>(
      await db.execute(sql`select ${COLUMNS} from ${FROM}
      where d.tenant_id = ${tenantId}::uuid and d.listing_id > ${after}::uuid order by d.listing_id limit ${PAGE}`),
    );
    for (const r of rows) ix.upsert(r);
    if (rows.length < PAGE) break;
    after = String(rows[rows.length - 1].listing_id);
    await yieldToEventLoop();
  }
  ix.version = version;
  await applyChanges(db, ix, await searchVersionOf(db, tenantId));
  return ix;
}

/**
 * Brings the index from its version to `version`: the documents written after it (each row carries
 * the version of its write, stamped by a trigger) and the removals recorded after it. Writers of a
 * tenant's documents bump its version first and hold the tenant row until they commit, so versions
 * commit in order and every row up to `version` is visible to these reads.
 */
export async function applyChanges(db: Db, ix: TenantIndex, version: number): Promise<void> {
  if (version <= ix.version) return;
  // The removals and the version they are pruned to, in one statement (one snapshot): a prune that
  // commits before it shows in `pruned`, one that commits after it left the removals to read.
  const [rows, gone] = await Promise.all([
    db.execute(sql`select ${COLUMNS} from ${FROM} where d.tenant_id = ${ix.tenantId}::uuid and d.search_version > ${ix.version}`),
    db.execute(sql`select (select search_removals_pruned from tenants where id = ${ix.tenantId}::uuid) as pruned,
      array(select listing_id::text from search_removals where tenant_id = ${ix.tenantId}::uuid and search_version > ${ix.version}) as ids`),
  ]);
  const [removed] = rowsOf<{ pruned: string | number | null; ids: string[] }>(gone);
  if (Number(removed.pruned ?? 0) > ix.version) throw new RemovalsPruned(ix.tenantId);
  for (const r of rowsOf<Record<string, unknown>>(rows)) ix.upsert(r);
  // A removed listing never comes back (ids are not reused), so removals apply after upserts.
  for (const id of removed.ids) ix.remove(String(id));
  ix.version = version;
}

/** Removals after the index's version were pruned: it cannot be brought up to date, only loaded again. */
export class RemovalsPruned extends Error {
  constructor(tenantId: string) {
    super(`search: removals of tenant ${tenantId} were pruned past the in-memory index's version`);
  }
}
