import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { agentChatPauses, agentExecutions } from "../../db/schema";

export type PauseReason = "human_reply" | "handover" | "opt_out";

/** Agents stand down in this chat (the first reason is kept: a hand-over stays a hand-over). */
export async function pauseChat(db: DbOrTx, p: { tenantId: string; channelId: string; chatId: string; reason: PauseReason }): Promise<void> {
  await db.insert(agentChatPauses).values(p).onConflictDoNothing();
}

export async function chatPause(db: DbOrTx, channelId: string, chatId: string): Promise<PauseReason | null> {
  const [r] = await db
    .select({ reason: agentChatPauses.reason })
    .from(agentChatPauses)
    .where(and(eq(agentChatPauses.channelId, channelId), eq(agentChatPauses.chatId, chatId)))
    .limit(1);
  return (r?.reason as PauseReason | undefined) ?? null;
}

/** Whether any agent of the tenant works on this channel (a cheap check before writing a pause). */
export async function channelHasAgents(db: DbOrTx, tenantId: string, channelId: string): Promise<boolean> {
  const r = await db.execute(sql`select 1 from agents where tenant_id = ${tenantId} and channel_ids @> ${JSON.stringify([channelId])}::jsonb limit 1`);
  return rowsOf(r).length > 0;
}

/**
 * A member answered in the chat (through the API, or on the phone): agents stop there, so the
 * contact never gets two voices. Written only where an agent works.
 */
export async function pauseOnHumanReply(db: DbOrTx, tenantId: string, channelId: string, chatId: string): Promise<void> {
  if (!(await channelHasAgents(db, tenantId, channelId))) return;
  // The gateway's echo of an agent's own send can be processed before the send is recorded: a
  // message of ours while an agent runs in the chat is taken as the agent's.
  const running = await db
    .select({ id: agentExecutions.id })
    .from(agentExecutions)
    .where(and(eq(agentExecutions.channelId, channelId), eq(agentExecutions.chatId, chatId), eq(agentExecutions.status, "running")))
    .limit(1);
  if (running.length) return;
  await pauseChat(db, { tenantId, channelId, chatId, reason: "human_reply" });
}
