import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { agents, messagingChannels, type AgentRow, type AgentToolPolicy } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { eventUserId, type Actor, type MemberActor } from "../context/actor";
import type { MemberCtx } from "../context/verb-context";
import { conflict, invalid, notFound } from "../errors/domain-errors";
import { accessibleChannel } from "../messaging/access";
import { recordEvent } from "../outbox/record-event";
import { stableJson } from "../util/stable-json";
import {
  AGENT_FIELDS,
  CreateAgentSchema,
  DEFAULT_MAX_STEPS,
  DEFAULT_MAX_TOKENS,
  UpdateAgentSchema,
  agentEventEntity,
  serializeAgent,
  type Agent,
} from "./schemas";
import { AGENT_TEMPLATES, templateById } from "./templates";

export function listAgentTemplates() {
  return { items: AGENT_TEMPLATES.map((t) => ({ ...t, toolPolicy: { ...t.toolPolicy, allow: [...t.toolPolicy.allow] }, triggers: [...t.triggers] })) };
}

export async function listAgents({ db, tenantId }: MemberCtx): Promise<{ items: Agent[] }> {
  const rows = await db.select().from(agents).where(eq(agents.tenantId, tenantId)).orderBy(asc(agents.createdAt), asc(agents.id));
  return { items: rows.map(serializeAgent) };
}

/** The agent of the tenant, or a 404 (another tenant's id included). */
export async function loadAgent(db: DbOrTx, tenantId: string, id: string, forUpdate = false): Promise<AgentRow> {
  const q = db
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), eq(agents.tenantId, tenantId)))
    .limit(1);
  const [row] = forUpdate ? await q.for("update") : await q;
  if (!row) throw notFound(`Agent ${id} not found.`);
  return row;
}

export async function getAgent(ctx: MemberCtx, id: string): Promise<{ agent: Agent }> {
  return { agent: serializeAgent(await loadAgent(ctx.db, ctx.tenantId, id)) };
}

const policyOf = (p: { allow: string[]; maxSteps?: number; maxTokensPerExecution?: number }): AgentToolPolicy => ({
  allow: p.allow,
  maxSteps: p.maxSteps ?? DEFAULT_MAX_STEPS,
  maxTokensPerExecution: p.maxTokensPerExecution ?? DEFAULT_MAX_TOKENS,
});

export async function createAgent(ctx: MemberCtx, body: unknown): Promise<{ agent: Agent }> {
  const data = CreateAgentSchema.parse(body);
  const tpl = data.templateId ? templateById(data.templateId) : undefined;
  const toolPolicy = data.toolPolicy ?? tpl?.toolPolicy;
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await assertChannels(tx, ctx.actor, data.channelIds);
    await assertOneVoice(tx, ctx.tenantId, null, {
      status: data.status ?? "active",
      triggers: (data.triggers ?? tpl?.triggers)!,
      channelIds: data.channelIds,
    });
    const [row] = await tx
      .insert(agents)
      .values({
        tenantId: ctx.tenantId,
        name: (data.name ?? tpl?.name)!,
        description: data.description !== undefined ? data.description : (tpl?.description ?? null),
        templateId: data.templateId ?? null,
        status: data.status ?? "active",
        executionMode: (data.executionMode ?? tpl?.executionMode)!,
        audience: (data.audience ?? tpl?.audience)!,
        model: data.model ?? null,
        instructions: (data.instructions ?? tpl?.instructions)!,
        channelIds: data.channelIds,
        triggers: (data.triggers ?? tpl?.triggers)!,
        toolPolicy: policyOf(toolPolicy!),
        createdById: ctx.actor.userId,
      })
      .returning();
    await recordEvent(tx, agentEvent(ctx.actor, "agent.created", row));
    return { agent: serializeAgent(row) };
  });
}

export async function updateAgent(ctx: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<{ agent: Agent }> {
  const data = UpdateAgentSchema.parse(body);
  if (Object.keys(data).length === 0) throw invalid("body: send at least one field to change.");
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const current = await loadAgent(tx, ctx.tenantId, id, true);
    if (data.channelIds) await assertChannels(tx, ctx.actor, data.channelIds);
    const next: Partial<AgentRow> = {};
    for (const k of AGENT_FIELDS) {
      if (data[k] === undefined) continue;
      (next as Record<string, unknown>)[k] = k === "toolPolicy" ? policyOf(data.toolPolicy!) : data[k];
    }
    const changedFields = AGENT_FIELDS.filter((k) => k in next && stableJson(current[k]) !== stableJson(next[k]));
    // The same values again write nothing and notify nobody.
    if (!changedFields.length) return { agent: serializeAgent(current) };
    await assertOneVoice(tx, ctx.tenantId, current.id, { ...current, ...next });
    const [row] = await tx
      .update(agents)
      .set({ ...next, updatedAt: new Date() })
      .where(and(eq(agents.id, current.id), eq(agents.tenantId, ctx.tenantId)))
      .returning();
    const e = agentEvent(ctx.actor, "agent.updated", row);
    await recordEvent(tx, { ...e, data: { ...e.data, changedFields } });
    return { agent: serializeAgent(row) };
  });
}

/** Deletes the agent with its executions and held messages; `agent.deleted` carries its last state. */
export async function deleteAgent(ctx: MemberCtx, id: string): Promise<void> {
  await inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const row = await loadAgent(tx, ctx.tenantId, id, true);
    await tx.delete(agents).where(and(eq(agents.id, row.id), eq(agents.tenantId, ctx.tenantId)));
    await recordEvent(tx, agentEvent(ctx.actor, "agent.deleted", row));
  });
}

function agentEvent(actor: Actor, eventName: "agent.created" | "agent.updated" | "agent.deleted", row: AgentRow) {
  return {
    tenantId: row.tenantId,
    eventName,
    entityType: "agent",
    entityId: row.id,
    userId: eventUserId(actor),
    data: { entity: agentEventEntity(row) } as Record<string, unknown>,
  };
}

/**
 * One voice per chat: two active agents answering the same channel's messages would both reply to
 * each one. A second one is a 409 naming the agent already there (pause it, or use another channel).
 */
async function assertOneVoice(tx: DbOrTx, tenantId: string, selfId: string | null, a: { status: string; triggers: string[]; channelIds: string[] }) {
  if (a.status !== "active" || !a.triggers.includes("inbound_message") || !a.channelIds.length) return;
  const [other] = await tx
    .select({ id: agents.id, name: agents.name })
    .from(agents)
    .where(
      and(
        eq(agents.tenantId, tenantId),
        eq(agents.status, "active"),
        selfId ? ne(agents.id, selfId) : undefined,
        sql`${agents.triggers} @> '["inbound_message"]'::jsonb`,
        sql`exists (select 1 from jsonb_array_elements_text(${agents.channelIds}) c where c in (${sql.join(
          a.channelIds.map((id) => sql`${id}`),
          sql`, `,
        )}))`,
      ),
    )
    .limit(1);
  if (other) {
    throw conflict(
      `channelIds: the active agent '${other.name}' (${other.id}) already answers inbound messages on one of these channels; pause it or pick another channel.`,
      "channel_has_agent",
    );
  }
}

/**
 * Each channel must be a (non-mock) messaging channel of the tenant that the member may use: an
 * agent reads its chats and sends in them, so it cannot reach further than the member setting it up.
 */
async function assertChannels(tx: DbOrTx, actor: MemberActor, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const ok = await tx
    .select({ id: messagingChannels.id })
    .from(messagingChannels)
    .where(and(inArray(messagingChannels.id, ids), accessibleChannel(actor)));
  const found = new Set(ok.map((r) => r.id));
  const missing = ids.filter((i) => !found.has(i));
  if (missing.length) {
    throw invalid(
      `channelIds: ${missing.join(", ")} ${missing.length > 1 ? "are not messaging channels" : "is not a messaging channel"} of this tenant that this key's member may use.`,
    );
  }
}
