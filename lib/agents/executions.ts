import { randomUUID } from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { agentExecutions, deals, messagingConversations, type AgentExecutionRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { can } from "../context/permissions";
import type { MemberCtx } from "../context/verb-context";
import { dealAccessWhere } from "../deals/access";
import { conflict, invalid, notFound } from "../errors/domain-errors";
import { accessibleChannelById } from "../messaging/access";
import { ChatIdSchema, phoneDigitsOf } from "../messaging/chat-id";
import { PageQuery, pageSchema } from "../schemas/paging";
import { tokenUsageOf } from "./execution-events";
import { loadAgent } from "./agents";
import { queueRuns } from "./triggers";

export const EXECUTION_STATUSES = ["queued", "running", "completed", "failed", "skipped"] as const;

export const ListExecutionsQuery = z.strictObject({ ...PageQuery }).meta({ id: "ListAgentExecutionsQuery" });

export const RunAgentSchema = z
  .union([
    z.strictObject({ channelId: z.uuid().transform((v) => v.toLowerCase()), chatId: ChatIdSchema }),
    z.strictObject({ dealId: z.uuid().transform((v) => v.toLowerCase()) }),
  ])
  .meta({ id: "AgentRun", description: "`{channelId, chatId}` (a chat on one of the agent's channels) or `{dealId}`." });

const StepSchema = z.record(z.string(), z.unknown()).meta({
  description:
    "`kind` `model` (`step`, `finishReason`, `inputTokens`, `outputTokens`) or `tool` (`tool`, `status` `ok`/`error`/`refused`, `input`, `output`, `at`, `ms`).",
});

export const AgentExecutionSchema = z
  .object({
    id: z.uuid(),
    agentId: z.uuid(),
    status: z
      .enum(EXECUTION_STATUSES)
      .meta({ description: "`skipped`: never started (the agent was paused, or agents stand down in the chat): `outcome` says why." }),
    triggerType: z.enum(["inbound_message", "lead_created", "deal_stage_changed", "manual"]),
    triggerId: z.string(),
    channelId: z.uuid().nullable(),
    chatId: z.string().nullable(),
    dealId: z.uuid().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    tokenUsage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int(), totalTokens: z.number().int() }),
    toolCount: z.number().int(),
    toolNames: z.array(z.string()),
    outcome: z
      .string()
      .nullable()
      .meta({ description: "`replied`, `handed_over`, `held_for_approval`, `shadow_recorded`, `no_reply`, `blocked_<reason>`; for `skipped`, why." }),
    errorMessage: z.string().nullable().meta({
      description:
        "For `failed`: `budget_exhausted`, `model_not_configured`, `model_timeout`, `model_invalid_response`, `model_unavailable`, `max_steps_exceeded`, `token_limit_exceeded`, `agent_owner_inactive`, `channel_forbidden`, `privacy_restricted`, `conversation_unavailable`, `interrupted`.",
    }),
    steps: z.array(StepSchema).optional().meta({ description: "Owner and admin broad keys only: each model step and tool call with its input and output." }),
  })
  .meta({ id: "AgentExecution" });

export type AgentExecution = z.infer<typeof AgentExecutionSchema>;
export const AgentExecutionPageSchema = pageSchema(AgentExecutionSchema, "AgentExecutionPage");
export const AgentExecutionEnvelopeSchema = z.object({ execution: AgentExecutionSchema }).meta({ id: "AgentExecutionEnvelope" });

export function presentExecution(e: AgentExecutionRow, withSteps: boolean): AgentExecution {
  return {
    id: e.id,
    agentId: e.agentId,
    status: e.status as AgentExecution["status"],
    triggerType: e.triggerType as AgentExecution["triggerType"],
    triggerId: e.triggerId,
    channelId: e.channelId,
    chatId: e.chatId,
    dealId: e.dealId,
    createdAt: e.createdAt.toISOString(),
    startedAt: e.startedAt?.toISOString() ?? null,
    completedAt: e.completedAt?.toISOString() ?? null,
    durationMs: e.startedAt && e.completedAt ? e.completedAt.getTime() - e.startedAt.getTime() : null,
    tokenUsage: tokenUsageOf(e),
    toolCount: e.toolNames.length,
    toolNames: e.toolNames,
    outcome: e.outcome,
    errorMessage: e.errorMessage,
    ...(withSteps ? { steps: e.steps } : {}),
  };
}

export async function listExecutions(ctx: MemberCtx, { id, query }: { id: string; query: z.output<typeof ListExecutionsQuery> }) {
  const agent = await loadAgent(ctx.db, ctx.tenantId, id);
  const where = and(eq(agentExecutions.tenantId, ctx.tenantId), eq(agentExecutions.agentId, agent.id));
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(agentExecutions)
      .where(where)
      .orderBy(desc(agentExecutions.createdAt), desc(agentExecutions.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ total: count() }).from(agentExecutions).where(where),
  ]);
  const admin = can(ctx.actor, "tenant.admin");
  return { items: rows.map((r) => presentExecution(r, admin)), total, page: query.page, pageSize: query.pageSize };
}

export async function getExecution(ctx: MemberCtx, executionId: string) {
  const [row] = await ctx.db
    .select()
    .from(agentExecutions)
    .where(and(eq(agentExecutions.id, executionId), eq(agentExecutions.tenantId, ctx.tenantId)))
    .limit(1);
  if (!row) throw notFound(`Agent execution ${executionId} not found.`);
  return { execution: presentExecution(row, can(ctx.actor, "tenant.admin")) };
}

/** `POST /agents/{id}/run`: queues one execution now, for a chat of the agent's channels or a deal. */
export async function runAgentNow(ctx: MemberCtx, { id, body }: { id: string; body: unknown }) {
  const input = RunAgentSchema.parse(body);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const agent = await loadAgent(tx, ctx.tenantId, id);
    if (agent.status !== "active") throw conflict("The agent is paused: set its status to `active` first.", "agent_paused");
    let target: { channelId: string | null; chatId: string | null; dealId: string | null };
    if ("dealId" in input) {
      const [d] = await tx
        .select({ id: deals.id })
        .from(deals)
        .where(and(eq(deals.id, input.dealId), eq(deals.tenantId, ctx.tenantId), dealAccessWhere(ctx.actor)))
        .limit(1);
      if (!d) throw invalid(`dealId: no deal ${input.dealId} in this tenant that this key can see.`);
      const [conv] = await tx
        .select({ channelId: messagingConversations.channelId, chatId: messagingConversations.chatId })
        .from(messagingConversations)
        .where(and(eq(messagingConversations.tenantId, ctx.tenantId), eq(messagingConversations.primaryDealId, d.id)))
        .limit(1);
      const onAgent = conv && agent.channelIds.includes(conv.channelId);
      target = { channelId: onAgent ? conv.channelId : null, chatId: onAgent ? conv.chatId : null, dealId: d.id };
    } else {
      if (!agent.channelIds.includes(input.channelId)) throw invalid(`channelId: ${input.channelId} is not one of this agent's channels.`);
      if (!(await accessibleChannelById(tx, ctx.actor, input.channelId)))
        throw invalid(`channelId: ${input.channelId} is not a channel this key's member may use.`);
      const [conv] = await tx
        .select({ chatId: messagingConversations.chatId })
        .from(messagingConversations)
        .where(and(eq(messagingConversations.channelId, input.channelId), eq(messagingConversations.chatId, input.chatId)))
        .limit(1);
      if (!conv && !phoneDigitsOf(input.chatId)) throw invalid("chatId: no such chat on this channel (a new chat needs a phone-form id, <digits>@c.us).");
      target = { channelId: input.channelId, chatId: input.chatId, dealId: null };
    }
    const [execId] = await queueRuns(tx, [{ agent, triggerType: "manual", triggerId: `manual:${randomUUID()}`, ...target }]);
    const [row] = await tx.select().from(agentExecutions).where(eq(agentExecutions.id, execId));
    return { execution: presentExecution(row, can(ctx.actor, "tenant.admin")) };
  });
}
