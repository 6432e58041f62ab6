import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { agentApprovals, messagingChannelGrants, messagingChannels, messagingConversations, type AgentApprovalRow } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { conflict, notFound } from "../errors/domain-errors";
import { sendMessage } from "../messaging/send/send-message";
import { itemsSchema } from "../schemas/paging";

export const APPROVAL_STATUSES = ["pending", "approved", "rejected", "shadow"] as const;

export const ListApprovalsQuery = z
  .strictObject({
    status: z.enum(APPROVAL_STATUSES).default("pending").meta({ description: "Default `pending`; `shadow` lists what shadow agents would have sent." }),
    agentId: z.uuid().optional(),
  })
  .meta({ id: "ListAgentApprovalsQuery" });

export const AgentApprovalSchema = z
  .object({
    id: z.uuid(),
    agentId: z.uuid(),
    executionId: z.uuid(),
    channelId: z.uuid(),
    chatId: z.string(),
    text: z.string().meta({ description: "The message the agent wants to send (or, for `shadow`, would have sent)." }),
    status: z.enum(APPROVAL_STATUSES),
    ack: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "After approval: the send's acknowledgement, as `POST /messaging/send` answers (a gate may still refuse it)." }),
    decidedById: z.uuid().nullable(),
    decidedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "AgentApproval" });

export const AgentApprovalListSchema = itemsSchema(AgentApprovalSchema, "AgentApprovalList");
export const AgentApprovalEnvelopeSchema = z.object({ approval: AgentApprovalSchema }).meta({ id: "AgentApprovalEnvelope" });

const present = (a: AgentApprovalRow): z.infer<typeof AgentApprovalSchema> => ({
  id: a.id,
  agentId: a.agentId,
  executionId: a.executionId,
  channelId: a.channelId,
  chatId: a.chatId,
  text: a.text,
  status: a.status as (typeof APPROVAL_STATUSES)[number],
  ack: a.ack,
  decidedById: a.decidedById,
  decidedAt: a.decidedAt?.toISOString() ?? null,
  createdAt: a.createdAt.toISOString(),
});

/** Held messages are conversation text: a member sees those of the channels it may use (owner or grant), as for the chats themselves. */
function onUsableChannel(ctx: MemberCtx) {
  return sql`exists (select 1 from ${messagingChannels} c where c.id = ${agentApprovals.channelId} and c.tenant_id = ${ctx.tenantId} and c.mock = false and (c.owner_id = ${ctx.actor.userId} or exists (select 1 from ${messagingChannelGrants} g where g.channel_id = c.id and g.member_id = ${ctx.actor.userId})))`;
}

export async function listApprovals(ctx: MemberCtx, q: z.output<typeof ListApprovalsQuery>) {
  const rows = await ctx.db
    .select()
    .from(agentApprovals)
    .where(
      and(
        eq(agentApprovals.tenantId, ctx.tenantId),
        eq(agentApprovals.status, q.status),
        q.agentId ? eq(agentApprovals.agentId, q.agentId) : undefined,
        onUsableChannel(ctx),
      ),
    )
    .orderBy(asc(agentApprovals.createdAt), asc(agentApprovals.id))
    .limit(500);
  return { items: rows.map(present) };
}

async function loadPending(ctx: MemberCtx, id: string): Promise<AgentApprovalRow> {
  const [row] = await ctx.db
    .select()
    .from(agentApprovals)
    .where(and(eq(agentApprovals.id, id), eq(agentApprovals.tenantId, ctx.tenantId), onUsableChannel(ctx)))
    .limit(1);
  if (!row) throw notFound(`Approval ${id} not found.`);
  if (row.status !== "pending") throw conflict(`This message was already decided (${row.status}).`, "approval_decided");
  return row;
}

/**
 * Sends the held message through the send verb, with the approving member's grants and every gate
 * checked now, keyed by the approval (a second approve cannot send twice). It counts as the
 * agent's message: it does not pause agents in the chat as a member's own reply would.
 */
export async function approveMessage(ctx: MemberCtx, id: string) {
  const row = await loadPending(ctx, id);
  const [conv] = await ctx.db
    .select({ id: messagingConversations.id })
    .from(messagingConversations)
    .where(and(eq(messagingConversations.channelId, row.channelId), eq(messagingConversations.chatId, row.chatId)))
    .limit(1);
  const agentCtx: MemberCtx = { ...ctx, actor: { ...ctx.actor, keyId: row.agentId, agentId: row.agentId } };
  const ack = await sendMessage(agentCtx, {
    mode: conv ? "reply" : "send",
    channelId: row.channelId,
    chatId: row.chatId,
    content: { kind: "text", text: row.text },
    idempotencyKey: `approval:${row.id}`,
  });
  return decide(ctx, row, "approved", ack as unknown as Record<string, unknown>);
}

export async function rejectMessage(ctx: MemberCtx, id: string) {
  return decide(ctx, await loadPending(ctx, id), "rejected", null);
}

async function decide(ctx: MemberCtx, row: AgentApprovalRow, status: "approved" | "rejected", ack: Record<string, unknown> | null) {
  const [done] = await ctx.db
    .update(agentApprovals)
    .set({ status, ack, decidedById: ctx.actor.userId, decidedAt: new Date() })
    .where(and(eq(agentApprovals.id, row.id), eq(agentApprovals.status, "pending")))
    .returning();
  if (!done) throw conflict("This message was decided meanwhile.", "approval_decided");
  return { approval: present(done) };
}
