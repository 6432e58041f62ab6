import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import type { SearchScope } from "./engine";
import { tenantPagesChanged } from "../page-cache/invalidate";

/**
 * When this process last changed a tenant's search documents, so short-lived caches (such as
 * `out_of`) are dropped the moment the index changes here. Other processes' changes show within
 * the cache's few seconds.
 */
const changedAt = new Map<string, number>();
let version = 0;

export function markIndexChanged(tenantId: string): void {
  changedAt.set(tenantId, Date.now());
  version++;
}

/** Bumped by every change to any search document made by this process. */
export function indexVersion(): number {
  return version;
}

export function indexChangedSince(tenantId: string, since: number): boolean {
  return (changedAt.get(tenantId) ?? 0) >= since;
}

/**
 * Bumps the tenant's search version in the transaction that changes its documents: cached
 * results are checked against it, so no process serves a result older than the last commit.
 */
export async function bumpSearchVersion(tx: DbOrTx, tenantId: string): Promise<unknown> {
  // The tenant's settings come back with it: the indexer needs them, and this saves it a read.
  const [row] = rowsOf<{ settings: unknown }>(
    await tx.execute(sql`update tenants set search_version = search_version + 1 where id = ${tenantId}::uuid returning settings`),
  );
  // The same change is what the tenant's site pages show (and its partners' sites): their cached copies go at commit.
  await tenantPagesChanged(tx, [tenantId]);
  return row?.settings;
}

/** The versions a scope depends on: its tenant's, and those of the tenants sharing to its networks. */
export async function scopeVersion(db: DbOrTx, scope: SearchScope): Promise<string> {
  const res = scope.networkIds.length
    ? await db.execute(sql`select string_agg(id::text || ':' || search_version, ',' order by id) as v from tenants
        where id = ${scope.tenantId}::uuid or id in (select tenant_id from network_members
          where network_id in (${sql.join(
            scope.networkIds.map((n) => sql`${n}::uuid`),
            sql`, `,
          )}))`)
    : await db.execute(sql`select search_version::text as v from tenants where id = ${scope.tenantId}::uuid`);
  return String(rowsOf<{ v: string | null }>(res)[0]?.v ?? "");
}
