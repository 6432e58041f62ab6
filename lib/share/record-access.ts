import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { listingSiteViews, shareLinks, shareLinkViews, type ShareLinkRow } from "../../db/schema";
import { logger } from "../log/logger";
import { hashClient } from "./secrets";

export type Visit = { client: string; userAgent: string | null; referrer: string | null };

const pending = new Set<Promise<void>>();

/**
 * Records an open after the answer is built, without the visitor waiting for it: the insert and
 * the counter update run in the background (one short statement each). A failure is logged; the
 * visitor already has the page.
 */
export function recordAccess(db: Db, link: ShareLinkRow, visit: Visit): void {
  const p = (async () => {
    const now = new Date();
    await db.insert(shareLinkViews).values({
      tenantId: link.tenantId, shareLinkId: link.id, viewedAt: now, clientHash: hashClient(link.coordinateSeed, visit.client),
      userAgent: visit.userAgent?.slice(0, 500) ?? null, referrer: visit.referrer?.slice(0, 1000) ?? null,
    });
    await db.update(shareLinks).set({ viewCount: sql`${shareLinks.viewCount} + 1`, lastViewedAt: now }).where(eq(shareLinks.id, link.id));
  })()
    .catch((err) => logger().error({ err, shareLinkId: link.id }, "share access not recorded"))
    .finally(() => pending.delete(p));
  pending.add(p);
}

/** How long site views gather in memory before one statement writes them. */
export const SITE_VIEW_FLUSH_MS = 1000;

/** Per database handle: views not written yet, by tenant, listing and day (UTC). */
const unwritten = new Map<Db, Map<string, { tenantId: string; listingId: string; day: string; views: number }>>();
let flushTimer: NodeJS.Timeout | undefined;

/**
 * Counts an open of a listing's detail on a site (the site half of a seller report's `views`).
 * A popular site opens many listing pages a second: the counts gather in memory and one upsert
 * writes them every SITE_VIEW_FLUSH_MS (and at a graceful stop), instead of one write and commit
 * per page. A process that dies loses at most that second of counts (docs/decisions.md).
 */
export function recordSiteView(db: Db, tenantId: string, listingId: string): void {
  const day = new Date().toISOString().slice(0, 10);
  let forDb = unwritten.get(db);
  if (!forDb) unwritten.set(db, (forDb = new Map()));
  const key = `${listingId}|${day}`;
  const row = forDb.get(key);
  if (row) row.views++;
  else forDb.set(key, { tenantId, listingId, day, views: 1 });
  flushTimer ??= setTimeout(() => void flushSiteViews(), SITE_VIEW_FLUSH_MS);
}

/** Writes the gathered site views now; rows of listings deleted meanwhile are skipped. */
function flushSiteViews(): Promise<void> {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  for (const [db, rows] of unwritten) {
    unwritten.delete(db);
    const batch = [...rows.values()].map((r) => ({ tenant_id: r.tenantId, listing_id: r.listingId, day: r.day, views: r.views }));
    const p = db
      .execute(sql`
        insert into listing_site_views (tenant_id, listing_id, day, views)
        select v.tenant_id, v.listing_id, v.day, v.views
        from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as v(tenant_id uuid, listing_id uuid, day date, views int)
        join listings l on l.id = v.listing_id and l.tenant_id = v.tenant_id
        on conflict (listing_id, day) do update set views = listing_site_views.views + excluded.views`)
      .then(() => undefined)
      .catch((err) => logger().error({ err, listings: batch.length }, "site views not recorded"))
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
}
