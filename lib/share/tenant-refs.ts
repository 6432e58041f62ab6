import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { deals } from "../../db/schema";
import type { MemberActor } from "../context/actor";
import { invalid } from "../errors/domain-errors";
import { firstUnreadableListing } from "../listings/readable-listings";

/**
 * Every id must be a listing this member may read in its own tenant. Another tenant's id (or a
 * private listing of a colleague, for a restricted key) is refused by name, never stored.
 */
export async function assertListingsReadable(db: DbOrTx, actor: MemberActor, ids: string[], field: string): Promise<void> {
  const bad = await firstUnreadableListing(db, actor, ids);
  if (bad) throw invalid(`${field}[${ids.indexOf(bad)}]: '${bad}' is not a listing of this tenant.`);
}

export async function assertDealInTenant(db: DbOrTx, tenantId: string, dealId: string | null | undefined): Promise<void> {
  if (!dealId) return;
  const [d] = await db
    .select({ id: deals.id })
    .from(deals)
    .where(and(eq(deals.id, dealId), eq(deals.tenantId, tenantId)))
    .limit(1);
  if (!d) throw invalid(`dealId: '${dealId}' is not a deal of this tenant.`);
}

/** Restricted keys see the records their member created; broad keys see the tenant's. */
export const createdByVisible = (actor: MemberActor, createdById: string | null) => actor.access === "broad" || createdById === actor.userId;
