import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import {
  agentChatPauses,
  agentExecutions,
  agents,
  contacts,
  dealContacts,
  deals,
  messagingConversations,
  messagingOptOuts,
  type AgentRow,
} from "../../db/schema";
import { afterCommit } from "../../db/transaction";
import { sendJobEvent } from "../jobs/dispatch";
import { isAfterHours, isOptOutWord } from "./audience";
import { chatPause, pauseChat, pauseOnHumanReply, type PauseReason } from "./pauses";
import { agentRunsQueued } from "./runs-queued";

type TriggerType = "inbound_message" | "lead_created" | "deal_stage_changed" | "manual";
export type QueuedRun = {
  agent: AgentRow;
  triggerType: TriggerType;
  triggerId: string;
  channelId: string | null;
  chatId: string | null;
  dealId: string | null;
};

/** Active agents of the tenant started by this trigger (and watching this channel, when one is given). */
async function agentsFor(tx: DbOrTx, tenantId: string, trigger: TriggerType, channelId?: string): Promise<AgentRow[]> {
  return tx
    .select()
    .from(agents)
    .where(agentsWhere(tenantId, trigger, channelId));
}

const agentsWhere = (tenantId: string, trigger: TriggerType, channelId?: string) =>
  and(
    eq(agents.tenantId, tenantId),
    eq(agents.status, "active"),
    sql`${agents.triggers} @> ${JSON.stringify([trigger])}::jsonb`,
    channelId ? sql`${agents.channelIds} @> ${JSON.stringify([channelId])}::jsonb` : undefined,
  );

/**
 * Queues executions in the caller's transaction (they exist exactly when the change that started
 * them does) and wakes the job after the commit. One execution per agent and trigger (the unique
 * key), and a chat that already has one waiting gets no second: the waiting one reads the whole
 * conversation when it runs, so a burst of messages makes one answer.
 */
export async function queueRuns(tx: DbOrTx, runs: QueuedRun[]): Promise<string[]> {
  const ids: string[] = [];
  for (const r of runs) {
    if (r.chatId && r.channelId) {
      // The chat's waiting execution, or a new one when there is none, in one statement (the
      // common case, a new chat, was a read and an insert: each statement is CPU on every inbound
      // message, issue 34). Inside the caller's transaction and its tenant lock, as before.
      const rows = rowsOf<{ id: string }>(
        await tx.execute(sql`
          with waiting as (
            select id from ${agentExecutions}
            where agent_id = ${r.agent.id} and channel_id = ${r.channelId} and chat_id = ${r.chatId} and status = 'queued'
            limit 1),
          added as (
            insert into ${agentExecutions} (tenant_id, agent_id, trigger_type, trigger_id, channel_id, chat_id, deal_id)
            select ${r.agent.tenantId}::uuid, ${r.agent.id}::uuid, ${r.triggerType}::text, ${r.triggerId}::text, ${r.channelId}::uuid, ${r.chatId}::text, ${r.dealId}::uuid
            where not exists (select 1 from waiting)
            on conflict do nothing
            returning id)
          select id from waiting union all select id from added`),
      );
      if (rows[0]) ids.push(rows[0].id);
      continue;
    }
    const [row] = await tx
      .insert(agentExecutions)
      .values({
        tenantId: r.agent.tenantId,
        agentId: r.agent.id,
        triggerType: r.triggerType,
        triggerId: r.triggerId,
        channelId: r.channelId,
        chatId: r.chatId,
        dealId: r.dealId,
      })
      .onConflictDoNothing()
      .returning({ id: agentExecutions.id });
    if (row) ids.push(row.id);
  }
  if (ids.length)
    afterCommit(
      tx,
      "agents:runs-queued",
      () => null,
      () => sendJobEvent(agentRunsQueued, {}),
    );
  return ids;
}

async function fitsAudience(tx: DbOrTx, agent: AgentRow, at: Date, target: { channelId?: string | null; chatId?: string | null; dealId?: string | null }) {
  if (agent.audience === "after_hours") return isAfterHours(at);
  if (agent.audience !== "unassigned") return true;
  if (target.dealId) {
    const [d] = await tx.select({ a: deals.assignedToId }).from(deals).where(eq(deals.id, target.dealId)).limit(1);
    if (d?.a) return false;
  }
  if (target.channelId && target.chatId) {
    const [c] = await tx
      .select({ a: messagingConversations.assignedToId, deal: deals.assignedToId })
      .from(messagingConversations)
      .leftJoin(deals, eq(deals.id, messagingConversations.primaryDealId))
      .where(and(eq(messagingConversations.channelId, target.channelId), eq(messagingConversations.chatId, target.chatId)))
      .limit(1);
    if (c?.a || c?.deal) return false;
  }
  return true;
}

/** What `onStoredMessage` reads for an inbound message: the agents watching the channel and the chat's pause. */
export type TriggerReads = { watching: AgentRow[]; pause: PauseReason | null };

/**
 * `onStoredMessage`'s reads, started by the caller so they travel with its own statements (one
 * round trip under the tenant's lock instead of two more); none for a message of ours.
 */
export function triggerReads(tx: DbOrTx, m: { tenantId: string; channelId: string; chatId: string; fromMe: boolean }): Promise<TriggerReads | undefined> {
  if (m.fromMe) return Promise.resolve(undefined);
  // One statement: the watching agents, each row with the chat's pause (with no agent watching,
  // the pause is not needed). Each statement costs CPU on every inbound message (issue 34).
  const pause = sql<PauseReason | null>`(select ${agentChatPauses.reason} from ${agentChatPauses} where ${and(
    eq(agentChatPauses.channelId, m.channelId),
    eq(agentChatPauses.chatId, m.chatId),
  )} limit 1)`;
  return tx
    .select({ agent: agents, pause })
    .from(agents)
    .where(agentsWhere(m.tenantId, "inbound_message", m.channelId))
    .then((rows) => ({ watching: rows.map((r) => r.agent), pause: rows[0]?.pause ?? null }));
}

/**
 * A message stored by the inbound processing (lib/messaging/inbound), in its transaction. A
 * message of ours typed on the phone pauses agents in the chat; an inbound one in an open chat
 * starts the agents watching the channel, unless the chat is paused, and an opt-out word puts the
 * chat's handle (its number, address, or the Instagram/Messenger chat) on the opt-out list and
 * stops agents there instead.
 */
export async function onStoredMessage(
  tx: DbOrTx,
  m: {
    tenantId: string;
    channelId: string;
    chatId: string;
    /** What an opt-out word puts on the list (`optOutHandleOfChat`): a phone, an address, an Instagram/Messenger chat. */
    optOutHandle: string | null;
    messageId: string;
    fromMe: boolean;
    open: boolean;
    text: string | null;
    at: Date;
  },
  reads?: TriggerReads,
): Promise<void> {
  if (m.fromMe) return pauseOnHumanReply(tx, m.tenantId, m.channelId, m.chatId);
  if (!m.open) return;
  const watching = reads ? reads.watching : await agentsFor(tx, m.tenantId, "inbound_message", m.channelId);
  if (!watching.length) return;
  if (isOptOutWord(m.text)) {
    if (m.optOutHandle) {
      await tx.insert(messagingOptOuts).values({ tenantId: m.tenantId, phone: m.optOutHandle, reason: "opt-out word sent to an agent" }).onConflictDoNothing();
    }
    await pauseChat(tx, { tenantId: m.tenantId, channelId: m.channelId, chatId: m.chatId, reason: "opt_out" });
    return;
  }
  if (reads ? reads.pause : await chatPause(tx, m.channelId, m.chatId)) return;
  const runs: QueuedRun[] = [];
  for (const agent of watching) {
    if (!(await fitsAudience(tx, agent, m.at, m))) continue;
    runs.push({ agent, triggerType: "inbound_message", triggerId: m.messageId, channelId: m.channelId, chatId: m.chatId, dealId: null });
  }
  await queueRuns(tx, runs);
}

/** The WhatsApp chat of a deal's first contact with a phone, on the agent's first channel. */
async function chatOfDeal(tx: DbOrTx, agent: AgentRow, dealId: string): Promise<{ channelId: string; chatId: string } | null> {
  if (!agent.channelIds.length) return null;
  const [linked] = await tx
    .select({ channelId: messagingConversations.channelId, chatId: messagingConversations.chatId })
    .from(messagingConversations)
    .where(and(eq(messagingConversations.primaryDealId, dealId), inArray(messagingConversations.channelId, agent.channelIds)))
    .limit(1);
  if (linked) return linked;
  const [c] = await tx
    .select({ phone: contacts.phone })
    .from(dealContacts)
    .innerJoin(contacts, eq(contacts.id, dealContacts.contactId))
    .where(and(eq(dealContacts.dealId, dealId), sql`${contacts.phone} is not null`))
    .orderBy(dealContacts.position)
    .limit(1);
  if (!c?.phone) return null;
  return { channelId: agent.channelIds[0], chatId: `${c.phone.replace(/\D/g, "")}@c.us` };
}

async function onDeals(tx: DbOrTx, tenantId: string, trigger: "lead_created" | "deal_stage_changed", items: { dealId: string; triggerId: string }[]) {
  if (!items.length) return;
  const watching = await agentsFor(tx, tenantId, trigger);
  if (!watching.length) return;
  const runs: QueuedRun[] = [];
  const now = new Date();
  for (const agent of watching) {
    for (const it of items) {
      const chat = await chatOfDeal(tx, agent, it.dealId);
      if (chat && (await chatPause(tx, chat.channelId, chat.chatId))) continue;
      if (!(await fitsAudience(tx, agent, now, { ...chat, dealId: it.dealId }))) continue;
      runs.push({ agent, triggerType: trigger, triggerId: it.triggerId, channelId: chat?.channelId ?? null, chatId: chat?.chatId ?? null, dealId: it.dealId });
    }
  }
  await queueRuns(tx, runs);
}

/** Deals lead processing made from new leads (lib/leads/inbound), in its transaction. */
export function onLeadDeals(tx: DbOrTx, tenantId: string, leads: { leadId: string; dealIds: string[] }[]): Promise<void> {
  return onDeals(
    tx,
    tenantId,
    "lead_created",
    leads.flatMap((l) => (l.dealIds[0] ? [{ dealId: l.dealIds[0], triggerId: `lead:${l.leadId}` }] : [])),
  );
}

/** A deal moved to another stage (lib/deals), in its transaction. */
export function onDealStageChanged(tx: DbOrTx, tenantId: string, dealId: string, stage: string, at: Date): Promise<void> {
  return onDeals(tx, tenantId, "deal_stage_changed", [{ dealId, triggerId: `${dealId}:${stage}:${at.getTime()}` }]);
}
