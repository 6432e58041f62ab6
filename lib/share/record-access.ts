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

/**
 * Counts an open of a listing's detail on a site (the site half of a seller report's `views`),
 * in the background like a link access: one upsert of the listing's row for the day (UTC).
 */
export function recordSiteView(db: Db, tenantId: string, listingId: string): void {
  const p = (async () => {
    const day = new Date().toISOString().slice(0, 10);
    await db
      .insert(listingSiteViews)
      .values({ tenantId, listingId, day, views: 1 })
      .onConflictDoUpdate({ target: [listingSiteViews.listingId, listingSiteViews.day], set: { views: sql`${listingSiteViews.views} + 1` } });
  })()
    .catch((err) => logger().error({ err, listingId }, "site view not recorded"))
    .finally(() => pending.delete(p));
  pending.add(p);
}

/** Waits for accesses being written (tests, graceful shutdown). */
export async function settleAccesses(): Promise<void> {
  while (pending.size) await Promise.allSettled([...pending]);
}
