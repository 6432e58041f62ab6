import { createHash, randomBytes } from "node:crypto";
import { and, count, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { listings, networkListings, networkMembers, networks } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { conflict, invalid, notFound } from "../errors/domain-errors";
import { inTenantTransaction } from "../../db/transaction";
import { itemsSchema } from "../schemas/paging";
import { reindexListings } from "../search/index-listings";
import { tenantPagesChanged } from "../page-cache/invalidate";

const hashCode = (code: string) => createHash("sha256").update(code).digest("hex");

export const CreateNetworkSchema = z.strictObject({ name: z.string().trim().min(1).max(120) }).meta({ id: "CreateNetwork" });
export const JoinNetworkSchema = z.strictObject({ inviteCode: z.string().trim().min(10).max(100) }).meta({ id: "JoinNetwork" });
export const ShareListingsSchema = z
  .strictObject({
    listingIds: z
      .array(z.uuid().transform((s) => s.toLowerCase()))
      .min(1)
      .max(500),
    shared: z.boolean().meta({ description: "true shares the listings to the network, false stops sharing them." }),
  })
  .meta({ id: "ShareListings" });

export const NetworkSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    members: z.number(),
    sharedListings: z.number().meta({ description: "How many of this tenant's listings are shared to it." }),
    inviteCode: z.string().optional().meta({ description: "Only when the network is created: give it to partner agencies." }),
  })
  .meta({ id: "Network" });

/** `listNetworks`. */
export const NetworkListSchema = itemsSchema(NetworkSchema, "NetworkList");

/** The answer of `joinNetwork`. */
export const JoinedNetworkSchema = NetworkSchema.pick({ id: true, name: true }).meta({ id: "JoinedNetwork" });

/** The answer of `shareListings`: the request echoed with the network id (listing ids lower-cased). */
export const SharedListingsSchema = z
  .object({
    networkId: z.uuid(),
    shared: ShareListingsSchema.shape.shared,
    listingIds: ShareListingsSchema.shape.listingIds,
  })
  .meta({ id: "SharedListings" });

/**
 * Networks the tenant belongs to (their shared listings appear in its searches), cached for a few
 * seconds per process: membership only grows (join), so a stale answer can only delay partner
 * listings, never show something the tenant may not see.
 */
const membership = new Map<string, { ids: string[]; at: number }>();
const MEMBERSHIP_TTL_MS = 5_000;

export async function memberNetworkIds(db: DbOrTx, tenantId: string, fresh = false): Promise<string[]> {
  const hit = membership.get(tenantId);
  if (!fresh && hit && Date.now() - hit.at < MEMBERSHIP_TTL_MS) return hit.ids;
  const rows = await db.select({ id: networkMembers.networkId }).from(networkMembers).where(eq(networkMembers.tenantId, tenantId));
  const ids = rows.map((r) => r.id);
  membership.set(tenantId, { ids, at: Date.now() });
  return ids;
}

export async function listNetworks({ db, actor }: MemberCtx): Promise<z.infer<typeof NetworkListSchema>> {
  const ids = await memberNetworkIds(db, actor.tenantId, true);
  if (!ids.length) return { items: [] };
  const [rows, memberCounts, shareCounts] = await Promise.all([
    db.select().from(networks).where(inArray(networks.id, ids)),
    db
      .select({ id: networkMembers.networkId, n: count() })
      .from(networkMembers)
      .where(inArray(networkMembers.networkId, ids))
      .groupBy(networkMembers.networkId),
    db
      .select({ id: networkListings.networkId, n: count() })
      .from(networkListings)
      .where(and(eq(networkListings.tenantId, actor.tenantId), inArray(networkListings.networkId, ids)))
      .groupBy(networkListings.networkId),
  ]);
  return {
    items: rows.map((n) => ({
      id: n.id,
      name: n.name,
      members: Number(memberCounts.find((m) => m.id === n.id)?.n ?? 0),
      sharedListings: Number(shareCounts.find((m) => m.id === n.id)?.n ?? 0),
    })),
  };
}

export async function createNetwork({ db, actor }: MemberCtx, input: unknown): Promise<z.infer<typeof NetworkSchema>> {
  const { name } = CreateNetworkSchema.parse(input);
  const inviteCode = `net_${randomBytes(18).toString("base64url")}`;
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const [n] = await tx
      .insert(networks)
      .values({ name, inviteCodeHash: hashCode(inviteCode), createdByTenantId: actor.tenantId })
      .returning();
    await tx.insert(networkMembers).values({ networkId: n.id, tenantId: actor.tenantId });
    membership.delete(actor.tenantId);
    // A site that shows its network's listings now shows other partners'.
    await tenantPagesChanged(tx, [actor.tenantId]);
    return { id: n.id, name: n.name, members: 1, sharedListings: 0, inviteCode };
  });
}

export async function joinNetwork({ db, actor }: MemberCtx, input: unknown): Promise<z.infer<typeof JoinedNetworkSchema>> {
  const { inviteCode } = JoinNetworkSchema.parse(input);
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const [n] = await tx
      .select()
      .from(networks)
      .where(eq(networks.inviteCodeHash, hashCode(inviteCode)));
    if (!n) throw invalid("inviteCode: no network has this invite code.");
    const [already] = await tx
      .select()
      .from(networkMembers)
      .where(and(eq(networkMembers.networkId, n.id), eq(networkMembers.tenantId, actor.tenantId)));
    if (already) throw conflict("This tenant is already a member of the network.");
    await tx.insert(networkMembers).values({ networkId: n.id, tenantId: actor.tenantId });
    membership.delete(actor.tenantId);
    // A site that shows its network's listings now shows other partners'.
    await tenantPagesChanged(tx, [actor.tenantId]);
    return { id: n.id, name: n.name };
  });
}

/** Shares (or stops sharing) listings of the tenant to a network it belongs to. */
export async function shareListings(
  { db, actor }: MemberCtx,
  { id: networkId, body: input }: { id: string; body: unknown },
): Promise<z.infer<typeof SharedListingsSchema>> {
  const { listingIds, shared } = ShareListingsSchema.parse(input);
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const member = (await memberNetworkIds(tx, actor.tenantId, true)).includes(networkId);
    if (!member) throw notFound(`Network ${networkId} not found among this tenant's networks.`);
    const own = await tx
      .select({ id: listings.id })
      .from(listings)
      .where(and(eq(listings.tenantId, actor.tenantId), inArray(listings.id, listingIds)));
    const missing = listingIds.find((id) => !own.some((o) => o.id === id));
    if (missing) throw invalid(`listingIds: ${missing} is not a listing of this tenant.`);
    if (shared) {
      await tx
        .insert(networkListings)
        .values(listingIds.map((listingId) => ({ networkId, listingId, tenantId: actor.tenantId })))
        .onConflictDoNothing();
    } else {
      await tx
        .delete(networkListings)
        .where(and(eq(networkListings.networkId, networkId), eq(networkListings.tenantId, actor.tenantId), inArray(networkListings.listingId, listingIds)));
    }
    await reindexListings(tx, actor.tenantId, listingIds);
    return { networkId, shared, listingIds };
  });
}
