import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { listings, shareLinks, shortlists, type SiteRow } from "../../db/schema";
import { UUID_PATTERN } from "../schemas/uuid";
import { loadTenant } from "../tenants/load-tenant";
import { hiddenByRules, loadListings, sharedDocument } from "./listing-data";

/**
 * The detail document of a listing seen through a shortlist (`property/{id}?shortlistId=`), even
 * while it is unpublished, or null. The shortlist must belong to the site's tenant, hold the
 * listing, and be shared by a live link (active, not expired): an id alone of a shortlist never
 * sent to anyone opens nothing. The tenant's sharing rules apply as on the link itself, with the
 * link's own coordinate offset, so the two answers never disagree about a point.
 */
export async function shortlistListing(db: DbOrTx, site: SiteRow, ref: string, shortlistId: string): Promise<Record<string, unknown> | null> {
  if (!UUID_PATTERN.test(shortlistId)) return null;
  const [sl] = await db
    .select({ listingIds: shortlists.listingIds })
    .from(shortlists)
    .where(and(eq(shortlists.id, shortlistId.toLowerCase()), eq(shortlists.tenantId, site.tenantId)))
    .limit(1);
  if (!sl) return null;
  const [link] = await db
    .select({ seed: shareLinks.coordinateSeed })
    .from(shareLinks)
    .where(
      and(
        eq(shareLinks.tenantId, site.tenantId),
        eq(shareLinks.entityType, "shortlist"),
        eq(shareLinks.entityId, shortlistId.toLowerCase()),
        eq(shareLinks.active, true),
        or(isNull(shareLinks.expiresAt), gt(shareLinks.expiresAt, new Date())),
      ),
    )
    .orderBy(desc(shareLinks.createdAt))
    .limit(1);
  if (!link) return null;
  let id: string | undefined = UUID_PATTERN.test(ref) ? ref.toLowerCase() : undefined;
  if (!id) {
    const [byCode] = await db
      .select({ id: listings.id })
      .from(listings)
      .where(and(eq(listings.tenantId, site.tenantId), sql`upper(${listings.listingCode}) = ${ref.toUpperCase().slice(0, 40)}`))
      .limit(1);
    id = byCode?.id;
  }
  if (!id || !sl.listingIds.includes(id)) return null;
  const d = (await loadListings(db, site.tenantId, [id])).get(id);
  const tenant = await loadTenant(db, site.tenantId);
  if (!d || hiddenByRules(tenant.settings, d.listing)) return null;
  return sharedDocument(tenant.settings, link.seed, d, true);
}
