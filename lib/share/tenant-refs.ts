import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { deals, listings, properties } from "../../db/schema";
import type { MemberActor } from "../context/actor";
import { invalid } from "../errors/domain-errors";
import { tenantListingsWhere } from "../listings/access";

/**
 * Every id must be a listing this member may read in its own tenant. Another tenant's id (or a
 * private listing of a colleague, for a restricted key) is refused by name, never stored.
 */
export async function assertListingsReadable(db: DbOrTx, actor: MemberActor, ids: string[], field: string): Promise<void> {
  if (!ids.length) return;
  const rows = await db
    .select({ id: listings.id })
    .from(listings)
    .innerJoin(properties, eq(properties.id, listings.propertyId))
    .where(and(tenantListingsWhere(actor), inArray(listings.id, ids)));
  const found = new Set(rows.map((r) => r.id));
  const i = ids.findIndex((id) => !found.has(id));
  if (i >= 0) throw invalid(`${field}[${i}]: '${ids[i]}' is not a listing of this tenant.`);
}

export async function assertDealInTenant(db: DbOrTx, tenantId: string, dealId: string | null | undefined): Promise<void> {
  if (!dealId) return;
  const [d] = await db.select({ id: deals.id }).from(deals).where(and(eq(deals.id, dealId), eq(deals.tenantId, tenantId))).limit(1);
  if (!d) throw invalid(`dealId: '${dealId}' is not a deal of this tenant.`);
}

/** Restricted keys see the records their member created; broad keys see the tenant's. */
export const createdByVisible = (actor: MemberActor, createdById: string | null) => actor.access === "broad" || createdById === actor.userId;
