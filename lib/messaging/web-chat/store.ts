import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/client";
import { messagingConversations, messagingMessages, type MessagingChannelRow, type MessagingMessageRow, webChatSessions } from "../../../db/schema";
import { rowsOf } from "../../../db/rows";
import { announce } from "./bus";

export { ChatMessageSchema, presentChatMessage, type ChatMessage } from "./present";

const PREVIEW_CHARS = 200;
/** A visitor's session lasts this long after the conversation's last message (either side's). */
export const SESSION_DAYS = 30;

/**
 * Stores an agency message of a conversation inside the send's tenant transaction (the adapter's
 * `keep`, run by `recordSent`), in one statement: the message row, the session's new expiry, and
 * the conversation's last message at the row's own time (so a visitor message committed between
 * the send and this transaction does not stay shown as the last one). `recordSent` then marks the
 * conversation answered and raises `channel.message.sent`. Visitor messages are written in
 * batches by ./intake.ts.
 */
export async function storeOutbound(tx: DbOrTx, channel: MessagingChannelRow, chatId: string, m: { id: string; text: string }): Promise<void> {
  const [stored] = rowsOf<{ seq: string; at: string }>(
    await tx.execute(sql`
    with m as (
      insert into ${messagingMessages} (id, tenant_id, channel_id, chat_id, direction, text, created_at)
      values (${m.id}, ${channel.tenantId}, ${channel.id}, ${chatId}, 'outbound', ${m.text}, date_trunc('milliseconds', clock_timestamp()))
      returning id, seq, created_at),
    s as (
      update ${webChatSessions} set expires_at = (select created_at from m) + ${`${SESSION_DAYS} days`}::interval
      where channel_id = ${channel.id} and chat_id = ${chatId}),
    c as (
      update ${messagingConversations} c
      set last_activity_at = m.created_at, last_preview = ${m.text.slice(0, PREVIEW_CHARS)}, last_from_me = true, last_message_id = m.id::text
      from m where c.channel_id = ${channel.id} and c.chat_id = ${chatId})
    select seq::text as seq, to_json(created_at) #>> '{}' as at from m`),
  );
  await announce(tx, [
    {
      id: m.id,
      seq: Number(stored.seq),
      channelId: channel.id,
      chatId,
      direction: "outbound",
      text: m.text,
      clientMessageId: null,
      createdAt: new Date(stored.at),
    },
  ]);
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
