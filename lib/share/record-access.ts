import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { shareLinks, shareLinkViews, type ShareLinkRow } from "../../db/schema";
import { logger } from "../log/logger";
import { hashClient } from "./secrets";
import { processGlobal } from "../util/process-global";

export type Visit = { client: string; userAgent: string | null; referrer: string | null };

type ViewRow = { tenantId: string; listingId: string; day: string; views: number; retried?: boolean };
/**
 * Writes in flight and site views not written yet, per database handle. One per process (`processGlobal`): the
 * server's bundles (pages, route handlers, instrumentation's shutdown) each load their own copy of
 * this module, and the shutdown must flush what the pages gathered.
 */
type AccessState = { pending: Set<Promise<void>>; unwritten: Map<Db, Map<string, ViewRow>>; timer?: NodeJS.Timeout };
const state = processGlobal<AccessState>("share-accesses", () => ({ pending: new Set(), unwritten: new Map() }));
const pending = state.pending;

/**
 * Records an open after the answer is built, without the visitor waiting for it: the insert and
 * the counter update run in the background (one short statement each). A failure is logged; the
 * visitor already has the page.
 */
export function recordAccess(db: Db, link: ShareLinkRow, visit: Visit): void {
  const p = (async () => {
    const now = new Date();
    await db.insert(shareLinkViews).values({
      tenantId: link.tenantId,
      shareLinkId: link.id,
      viewedAt: now,
      clientHash: hashClient(link.coordinateSeed, visit.client),
      userAgent: visit.userAgent?.slice(0, 500) ?? null,
      referrer: visit.referrer?.slice(0, 1000) ?? null,
    });
    await db
      .update(shareLinks)
      .set({ viewCount: sql`${shareLinks.viewCount} + 1`, lastViewedAt: now })
      .where(eq(shareLinks.id, link.id));
  })()
    .catch((err) => logger().error({ err, shareLinkId: link.id }, "share access not recorded"))
    .finally(() => pending.delete(p));
  pending.add(p);
}

/** How long site views gather in memory before one statement writes them. */
export const SITE_VIEW_FLUSH_MS = 1000;
/**
 * Counts an open of a listing's detail on a site (the site half of a seller report's `views`).
 * A popular site opens many listing pages a second: the counts gather in memory and one upsert
 * writes them every SITE_VIEW_FLUSH_MS (and at a graceful stop), instead of one write and commit
 * per page. A process that dies loses at most that second of counts (docs/decisions.md).
 */
export function recordSiteView(db: Db, tenantId: string, listingId: string): void {
  gather(db, { tenantId, listingId, day: new Date().toISOString().slice(0, 10), views: 1 });
}

function gather(db: Db, v: ViewRow): void {
  let forDb = state.unwritten.get(db);
  if (!forDb) state.unwritten.set(db, (forDb = new Map()));
  const key = `${v.listingId}|${v.day}`;
  const row = forDb.get(key);
  if (row) row.views += v.views;
  else forDb.set(key, { ...v });
  // Not held open by the timer: a stopping process flushes through settleAccesses().
  state.timer ??= setTimeout(() => void flushSiteViews(), SITE_VIEW_FLUSH_MS).unref();
}

/**
 * Writes the gathered site views now, in listing order (so web processes flushing at the same
 * moment lock rows in the same order and never deadlock); rows of listings deleted meanwhile are
 * skipped. A batch that fails is gathered again once, then dropped with a log line.
 */
function flushSiteViews(): Promise<void> {
  clearTimeout(state.timer);
  state.timer = undefined;
  for (const [db, rows] of state.unwritten) {
    state.unwritten.delete(db);
    const batch = [...rows.values()];
    const json = batch.map((r) => ({ tenant_id: r.tenantId, listing_id: r.listingId, day: r.day, views: r.views }));
    const p = db
      .execute(sql`
        insert into listing_site_views (tenant_id, listing_id, day, views)
        select v.tenant_id, v.listing_id, v.day, v.views
        from jsonb_to_recordset(${JSON.stringify(json)}::jsonb) as v(tenant_id uuid, listing_id uuid, day date, views int)
        join listings l on l.id = v.listing_id and l.tenant_id = v.tenant_id
        order by v.listing_id, v.day
        on conflict (listing_id, day) do update set views = listing_site_views.views + excluded.views`)
      .then(() => undefined)
      .catch((err: unknown) => {
        const again = batch.filter((r) => !r.retried);
        logger().warn(
          { err, listings: batch.length, retrying: again.length },
          again.length ? "site views not recorded; retrying once" : "site views not recorded",
        );
        for (const r of again) gather(db, { ...r, retried: true });
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  }
  return settlePending();
}

async function settlePending(): Promise<void> {
  while (pending.size) await Promise.allSettled([...pending]);
}

/** Writes what was gathered and waits for accesses being written (tests, graceful shutdown). */
export async function settleAccesses(): Promise<void> {
  await flushSiteViews();
  // A failed batch gathered again for its retry: write it now rather than after the process is gone.
  if (state.unwritten.size) await flushSiteViews();
}
