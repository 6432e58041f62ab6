import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { defineJob } from "../jobs/define-job";

/** Tombstones older than this are pruned: an in-memory index this stale loads again instead. */
export const REMOVALS_KEPT_MS = 24 * 60 * 60_000;

/**
 * Deletes the search tombstones older than `keptMs` and records, per tenant, the highest version
 * pruned (`tenants.search_removals_pruned`). An in-memory index behind that version could miss a
 * removal, so it reloads (memory-engine.ts); every other index applies the tombstones it needs.
 * One statement: the deletion and the record commit together.
 */
export async function pruneSearchRemovals(db: Db, keptMs = REMOVALS_KEPT_MS): Promise<number> {
  const res = await db.execute(sql`
    with gone as (
      delete from search_removals where removed_at < now() - make_interval(secs => ${keptMs / 1000})
      returning tenant_id, search_version
    ), per_tenant as (select tenant_id, max(search_version) as v, count(*) as n from gone group by tenant_id),
    marked as (
      update tenants t set search_removals_pruned = greatest(t.search_removals_pruned, p.v)
      from per_tenant p where t.id = p.tenant_id returning t.id
    )
    select coalesce(sum(n), 0) as n from per_tenant`);
  return Number(rowsOf<{ n: string | number }>(res)[0].n);
}

/** Hourly on Inngest, hourly in the embedded runner. */
export const pruneSearchRemovalsJob = defineJob({
  id: "prune-search-removals",
  step: "prune-search-removals",
  retries: 2,
  schedule: { functionId: "prune-search-removals-cron", cron: "17 * * * *", embeddedEveryMs: () => 60 * 60_000 },
  run: async (_data, { db, log }) => {
    const n = await pruneSearchRemovals(db);
    if (n) log.info({ pruned: n }, "search: old removal tombstones pruned");
    return { pruned: n };
  },
});
