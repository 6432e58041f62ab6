import { and, count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { inboundLeads, marketingChannelInstances, type InboundLeadRow } from "../../../db/schema";
import type { MemberCtx } from "../../context/verb-context";
import { conflict, notFound } from "../../errors/domain-errors";
import { sendJobEvent } from "../../jobs/dispatch";
import { leadReceived } from "./lead-job";

export const LeadLogQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(["received", "processing", "processed", "failed"]).optional(),
});

export const LeadLogItemSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(["received", "processing", "processed", "failed"]),
    destination: z.string(),
    originLeadId: z.string().nullable(),
    dealIds: z.array(z.uuid()),
    listingId: z.uuid().nullable(),
    assignedToId: z.uuid().nullable(),
    decision: z.array(z.string()),
    error: z.string().nullable(),
    attempts: z.number(),
    invalidFields: z.array(z.string()),
    receivedAt: z.string(),
    processedAt: z.string().nullable(),
  })
  .meta({ id: "InboundLeadLogItem" });

/** The answer of `listChannelLeads`. */
export const LeadLogPageSchema = z.object({ items: z.array(LeadLogItemSchema), total: z.number(), page: z.number(), pageSize: z.number() });

/** What support needs of a lead: its state, what it became, why, and what went wrong. Not the raw body. */
const present = (l: InboundLeadRow): z.infer<typeof LeadLogItemSchema> => ({
  id: l.id,
  status: l.status,
  destination: l.destination,
  originLeadId: l.originLeadId,
  dealIds: l.dealIds,
  listingId: l.listingId,
  assignedToId: l.assignedToId,
  decision: l.decision,
  error: l.error,
  attempts: l.attempts,
  invalidFields: Object.keys(((l.lead as { invalid?: Record<string, string> }).invalid ?? {}) as object),
  receivedAt: l.receivedAt.toISOString(),
  processedAt: l.processedAt?.toISOString() ?? null,
});

async function assertChannel({ db, actor }: MemberCtx, channelId: string) {
  const [c] = await db
    .select({ id: marketingChannelInstances.id })
    .from(marketingChannelInstances)
    .where(and(eq(marketingChannelInstances.id, channelId), eq(marketingChannelInstances.tenantId, actor.tenantId)))
    .limit(1);
  if (!c) throw notFound(`Marketing channel ${channelId} not found.`);
}

/** `GET .../marketing-channels/{id}/leads`: newest first, paged. */
export async function listChannelLeads(ctx: MemberCtx, channelId: string, q: z.infer<typeof LeadLogQuery>): Promise<z.infer<typeof LeadLogPageSchema>> {
  await assertChannel(ctx, channelId);
  const where = and(
    eq(inboundLeads.tenantId, ctx.actor.tenantId),
    eq(inboundLeads.channelId, channelId),
    q.status ? eq(inboundLeads.status, q.status) : undefined,
  );
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(inboundLeads)
      .where(where)
      .orderBy(desc(inboundLeads.receivedAt), desc(inboundLeads.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    ctx.db.select({ n: count() }).from(inboundLeads).where(where),
  ]);
  return { items: rows.map(present), total: Number(n), page: q.page, pageSize: q.pageSize };
}

/** `POST .../leads/{leadId}/replay`: a failed lead goes back to `received` (same dedupe key) and is processed again. */
export async function replayLead(ctx: MemberCtx, channelId: string, leadId: string) {
  await assertChannel(ctx, channelId);
  const [row] = await ctx.db
    .update(inboundLeads)
    .set({ status: "received", error: null, claimedAt: null })
    .where(
      and(eq(inboundLeads.id, leadId), eq(inboundLeads.tenantId, ctx.actor.tenantId), eq(inboundLeads.channelId, channelId), eq(inboundLeads.status, "failed")),
    )
    .returning();
  if (!row) {
    const [exists] = await ctx.db
      .select({ status: inboundLeads.status })
      .from(inboundLeads)
      .where(and(eq(inboundLeads.id, leadId), eq(inboundLeads.tenantId, ctx.actor.tenantId), eq(inboundLeads.channelId, channelId)))
      .limit(1);
    if (!exists) throw notFound(`Lead ${leadId} not found on this channel.`);
    throw conflict(`Only a failed lead can be replayed; this one is ${exists.status}.`);
  }
  sendJobEvent(leadReceived, { leadId: row.id });
  return present(row);
}
