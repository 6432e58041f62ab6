import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { listings, properties } from "../../db/schema";
import type { Actor } from "../context/actor";
import { invalid } from "../errors/domain-errors";
import { listingsReadableByWhere } from "./access";

/**
 * A listing a caller attaches to a task, offer, transaction or deal must be one it can read. One it
 * cannot read (another tenant's, or a colleague's private listing for a restricted key) answers
 * exactly like one that does not exist (same status, code and message), so the answer never
 * tells a broker that the id names someone else's listing.
 */
export async function firstUnreadableListing(db: DbOrTx, actor: Actor, ids: readonly string[]): Promise<string | null> {
  if (!ids.length) return null;
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  const rows = await db
    .select({ id: listings.id })
    .from(listings)
    .innerJoin(properties, eq(properties.id, listings.propertyId))
    .where(and(listingsReadableByWhere(actor), inArray(listings.id, wanted)));
  const found = new Set(rows.map((r) => r.id));
  return ids.find((id) => !found.has(id.toLowerCase())) ?? null;
}

export async function assertListingReadable(db: DbOrTx, actor: Actor, listingId: string, field = "listingId"): Promise<void> {
  if (await firstUnreadableListing(db, actor, [listingId])) throw invalid(`${field}: no listing ${listingId} in this tenant that this key can see.`);
}
