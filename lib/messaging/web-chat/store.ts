import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client";
import { messagingConversations, messagingMessages, type MessagingChannelRow, type MessagingMessageRow, webChatSessions } from "../../../db/schema";
import { afterCommit } from "../../../db/transaction";
import { conversationTopic, publish } from "./bus";

const PREVIEW_CHARS = 200;
/** A visitor's session lasts this long after the conversation's last message (either side's). */
export const SESSION_DAYS = 30;

/** A message as the visitor's side shows it: no member id, no internal sequence. */
export const ChatMessageSchema = z
  .object({
    id: z.uuid(),
    direction: z.enum(["inbound", "outbound"]).meta({ description: "`inbound`: the visitor's; `outbound`: the agency's answer." }),
    text: z.string().nullable(),
    at: z.string().meta({ description: "When it was stored (ISO 8601 UTC)." }),
    clientMessageId: z.string().nullable().meta({ description: "The visitor's own id of the message (null for the agency's)." }),
  })
  .meta({ id: "WebChatMessage" });
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const presentChatMessage = (m: MessagingMessageRow): ChatMessage => ({
  id: m.id,
  direction: m.direction,
  text: m.text,
  at: m.createdAt.toISOString(),
  clientMessageId: m.direction === "inbound" ? m.clientMessageId : null,
});

/**
 * Announces the conversation's news once, after the transaction that stored it commits: every
 * conversation a transaction touched goes in one NOTIFY statement.
 */
export function announceAfterCommit(tx: DbOrTx, channelId: string, chatId: string): void {
  afterCommit(
    tx,
    "web-chat:announce",
    () => new Set<string>(),
    (topics) => publish(...topics),
  ).add(conversationTopic(channelId, chatId));
}

/**
 * Stores an agency message of a conversation inside the send's tenant transaction (the adapter's
 * `keep`, run by `recordSent`), in one statement: the message row, the session's new expiry, and
 * the conversation's last message at the row's own time (so a visitor message committed between
 * the send and this transaction does not stay shown as the last one). `recordSent` then marks the
 * conversation answered and raises `channel.message.sent`. Visitor messages are written in
 * batches by ./intake.ts.
 */
export async function storeOutbound(tx: DbOrTx, channel: MessagingChannelRow, chatId: string, m: { id: string; text: string }): Promise<void> {
  await tx.execute(sql`
    with m as (
      insert into ${messagingMessages} (id, tenant_id, channel_id, chat_id, direction, text, created_at)
      values (${m.id}, ${channel.tenantId}, ${channel.id}, ${chatId}, 'outbound', ${m.text}, date_trunc('milliseconds', clock_timestamp()))
      returning id, created_at),
    s as (
      update ${webChatSessions} set expires_at = (select created_at from m) + ${`${SESSION_DAYS} days`}::interval
      where channel_id = ${channel.id} and chat_id = ${chatId})
    update ${messagingConversations} c
    set last_activity_at = m.created_at, last_preview = ${m.text.slice(0, PREVIEW_CHARS)}, last_from_me = true, last_message_id = m.id::text
    from m where c.channel_id = ${channel.id} and c.chat_id = ${chatId}`);
  announceAfterCommit(tx, channel.id, chatId);
}

/**
 * Messages of a conversation after the one with id `afterId` (all when null), oldest first. Every
 * open stream runs this on each message of its conversation, so its SQL is built once per database
 * handle (a prepared query with placeholders): building it each time was a large part of a
 * delivered message's CPU.
 */
export async function messagesAfter(db: Db, channelId: string, chatId: string, afterId: string | null, limit: number): Promise<MessagingMessageRow[]> {
  let q = afterQueries.get(db);
  if (!q) afterQueries.set(db, (q = prepareAfter(db)));
  return q.execute({ channelId, chatId, afterId, limit });
}

const afterQueries = new WeakMap<Db, ReturnType<typeof prepareAfter>>();
function prepareAfter(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return db
    .select()
    .from(messagingMessages)
    .where(
      and(
        eq(messagingMessages.channelId, p("channelId")),
        eq(messagingMessages.chatId, p("chatId")),
        gt(
          messagingMessages.seq,
          sql`coalesce((select m.seq from ${messagingMessages} m where m.id = ${p("afterId")}::uuid and m.channel_id = ${p("channelId")} and m.chat_id = ${p("chatId")}), 0)`,
        ),
      ),
    )
    .orderBy(asc(messagingMessages.seq))
    .limit(p("limit"))
    .prepare("web_chat_messages_after");
}

/**
 * One page of a conversation's stored history, newest first, strictly older than `before`. Two
 * messages stored in the same millisecond across a page edge would lose the older one; a
 * conversation is written under its tenant's lock, one statement at a time, so that is not expected.
 */
export async function messagesBefore(db: DbOrTx, channelId: string, chatId: string, before: Date | undefined, limit: number): Promise<MessagingMessageRow[]> {
  const same = and(eq(messagingMessages.channelId, channelId), eq(messagingMessages.chatId, chatId));
  return db
    .select()
    .from(messagingMessages)
    .where(and(same, before ? lt(messagingMessages.createdAt, before) : undefined))
    .orderBy(desc(messagingMessages.createdAt), desc(messagingMessages.seq))
    .limit(limit);
}
