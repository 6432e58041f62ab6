import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { deals, distributionQueueMembers, members, type DealRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { contactsOfDeals } from "../contacts/resolve-contacts";
import type { Actor, MemberActor } from "../context/actor";
import type { MemberCtx } from "../context/verb-context";
import { conflict, forbidden, invalid } from "../errors/domain-errors";
import { recordEvent } from "../outbox/record-event";
import { assertMayAssign, dealEvent, loadDeal } from "./deals";
import { dealEventEntity, serializeDeal, type Deal } from "./serialize";

export const TransferDealSchema = z
  .strictObject({
    newOwnerId: z.uuid().meta({ description: "The active member who takes the deal over." }),
    transferReason: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, "must be a lower-case code such as manual, vacation or workload")
      .refine((r) => r !== "member_deactivated", "member_deactivated is reserved for deactivation hand-overs")
      .default("manual")
      .meta({ description: "Code carried as `transferReason` by `distribution.transferred`; default `manual`." }),
  })
  .meta({ id: "DealTransfer" });

export const RejectDistributionSchema = z
  .strictObject({ reason: z.string().trim().min(1).max(500).optional().meta({ description: "Why the broker declines the lead (free text)." }) })
  .meta({ id: "DistributionReject" });

/**
 * Hands a deal to another member: one `distribution.transferred` (`previousOwnerId`, `newOwnerId`,
 * `transferReason`) and the `deal.updated` of the changed row. A transfer to the current owner
 * changes nothing and sends nothing.
 */
export async function transferDeal({ db, actor }: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<Deal> {
  const data = TransferDealSchema.parse(body);
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const { deal } = await loadDeal(tx, actor, id, true);
    await assertActiveMember(tx, actor.tenantId, data.newOwnerId, "newOwnerId");
    assertMayAssign(actor, data.newOwnerId);
    const row = await handOver(tx, actor, deal, data.newOwnerId, data.transferReason);
    return serializeDeal(row, (await contactsOfDeals(tx, actor.tenantId, [row.id])).get(row.id)!);
  });
}

/**
 * Member deactivation: the member's open deals go to `newOwnerId`, one `distribution.transferred`
 * each with `transferReason` `member_deactivated`. Won and lost deals keep their owner (history).
 * Runs inside the deactivation's transaction.
 */
export async function handOverDealsOf(tx: DbOrTx, actor: MemberActor, memberId: string, newOwnerId: string): Promise<number> {
  await assertActiveMember(tx, actor.tenantId, newOwnerId, "transferDealsTo");
  if (newOwnerId === memberId) throw invalid("transferDealsTo: must be another member than the one being deactivated.");
  const open = await tx
    .select()
    .from(deals)
    .where(and(eq(deals.tenantId, actor.tenantId), eq(deals.assignedToId, memberId), eq(deals.status, "open")))
    .orderBy(asc(deals.createdAt), asc(deals.id))
    .for("update");
  for (const deal of open) await handOver(tx, actor, deal, newOwnerId, "member_deactivated");
  return open.length;
}

/** The broker a lead was distributed to takes it: `distribution.accepted`, once. */
export async function acceptDistribution({ db, actor }: MemberCtx, id: string): Promise<Deal> {
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const { deal, people } = await loadDeal(tx, actor, id, true);
    assertDistributedTo(actor, deal);
    if (deal.distributionAcceptedAt) return serializeDeal(deal, people);
    const [row] = await tx
      .update(deals)
      .set({ distributionAcceptedAt: new Date() })
      .where(and(eq(deals.id, deal.id), eq(deals.tenantId, actor.tenantId)))
      .returning();
    await recordEvent(tx, {
      tenantId: actor.tenantId,
      eventName: "distribution.accepted",
      entityType: "deal",
      entityId: deal.id,
      userId: actor.userId,
      data: { dealId: deal.id, memberId: actor.userId, marketingChannelInstanceId: deal.marketingChannelInstanceId, acceptedAt: row.distributionAcceptedAt },
    });
    return serializeDeal(row, people);
  });
}

/**
 * The broker declines the lead: `distribution.rejected`, then the channel's queue offers it to the
 * next active member after the one who declined (`distribution.assigned`), or leaves it unassigned
 * when nobody else is in the queue. An accepted lead cannot be declined any more (409).
 */
export async function rejectDistribution({ db, actor }: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<Deal> {
  const data = RejectDistributionSchema.parse(body ?? {});
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const { deal, people } = await loadDeal(tx, actor, id, true);
    assertDistributedTo(actor, deal);
    if (deal.distributionAcceptedAt) throw conflict(`Deal ${deal.id}: the lead was already accepted; transfer it instead.`, "already_accepted");
    const next = await nextAfter(tx, actor.tenantId, deal.marketingChannelInstanceId!, actor.userId);
    const [row] = await tx
      .update(deals)
      .set({ assignedToId: next, updatedAt: new Date() })
      .where(and(eq(deals.id, deal.id), eq(deals.tenantId, actor.tenantId)))
      .returning();
    await recordEvent(tx, {
      tenantId: actor.tenantId,
      eventName: "distribution.rejected",
      entityType: "deal",
      entityId: deal.id,
      userId: actor.userId,
      data: {
        dealId: deal.id,
        memberId: actor.userId,
        reason: data.reason ?? null,
        marketingChannelInstanceId: deal.marketingChannelInstanceId,
        nextAssignedToId: next,
      },
    });
    if (next) {
      await recordEvent(tx, {
        tenantId: actor.tenantId,
        eventName: "distribution.assigned",
        entityType: "deal",
        entityId: deal.id,
        userId: null,
        data: { dealId: deal.id, assignedToId: next, marketingChannelInstanceId: deal.marketingChannelInstanceId, method: "round_robin" },
      });
    }
    await recordEvent(tx, dealEvent(actor, "deal.updated", row, { entity: dealEventEntity(row, people) }, dealEventEntity(deal, people)));
    return serializeDeal(row, people);
  });
}

async function handOver(tx: DbOrTx, actor: Actor, deal: DealRow, newOwnerId: string, transferReason: string): Promise<DealRow> {
  if (deal.assignedToId === newOwnerId) return deal;
  const [row] = await tx
    .update(deals)
    .set({ assignedToId: newOwnerId, updatedAt: new Date() })
    .where(and(eq(deals.id, deal.id), eq(deals.tenantId, actor.tenantId)))
    .returning();
  const people = (await contactsOfDeals(tx, actor.tenantId, [deal.id])).get(deal.id)!;
  await recordEvent(tx, {
    tenantId: actor.tenantId,
    eventName: "distribution.transferred",
    entityType: "deal",
    entityId: deal.id,
    userId: actor.kind === "member" ? actor.userId : null,
    data: { dealId: deal.id, previousOwnerId: deal.assignedToId, newOwnerId, transferReason },
  });
  await recordEvent(tx, dealEvent(actor, "deal.updated", row, { entity: dealEventEntity(row, people) }, dealEventEntity(deal, people)));
  return row;
}

function assertDistributedTo(actor: MemberActor, deal: DealRow) {
  if (!deal.marketingChannelInstanceId)
    throw conflict(`Deal ${deal.id} was not distributed by a marketing channel: there is nothing to accept or reject.`, "not_distributed");
  if (deal.assignedToId !== actor.userId) throw forbidden(`Deal ${deal.id} is distributed to another member: only that broker can accept or reject it.`);
}

async function assertActiveMember(tx: DbOrTx, tenantId: string, memberId: string, field: string) {
  const [m] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.tenantId, tenantId), eq(members.active, true)))
    .limit(1);
  if (!m) throw invalid(`${field}: no active member ${memberId} in this tenant.`);
}

/** The next active member of the channel's queue after `after` (wrapping), never `after` itself. */
async function nextAfter(tx: DbOrTx, tenantId: string, channelId: string, after: string): Promise<string | null> {
  const queue = await tx
    .select({ memberId: distributionQueueMembers.memberId })
    .from(distributionQueueMembers)
    .innerJoin(members, and(eq(members.id, distributionQueueMembers.memberId), eq(members.tenantId, tenantId)))
    .where(and(eq(distributionQueueMembers.channelInstanceId, channelId), eq(distributionQueueMembers.tenantId, tenantId), eq(members.active, true)))
    .orderBy(asc(distributionQueueMembers.position));
  const at = queue.findIndex((q) => q.memberId === after);
  const ordered = at < 0 ? queue : [...queue.slice(at + 1), ...queue.slice(0, at)];
  return ordered.find((q) => q.memberId !== after)?.memberId ?? null;
}
