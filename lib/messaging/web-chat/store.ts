import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client";
import {
  messagingChatPrivacy,
  messagingConversations,
  messagingMessages,
  type MessagingChannelRow,
  type MessagingMessageRow,
  webChatSessions,
} from "../../../db/schema";
import { afterCommit } from "../../../db/transaction";
import { effectivePrivacy, privacyStateOf } from "../chat-privacy";
import { recordMessageEvent } from "../message-events";
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

/** Announces the conversation's news once, after the transaction that stored it commits. */
export function announceAfterCommit(tx: DbOrTx, channelId: string, chatId: string): void {
  const topic = conversationTopic(channelId, chatId);
  afterCommit(
    tx,
    `web-chat:${topic}`,
    () => topic,
    (t) => publish(t),
  );
}

/**
 * Stores one message of a conversation and moves the conversation's record (created on the first),
 * inside the caller's tenant transaction. Returns null when the conversation already has a message
 * with this `clientMessageId` (a resend). Inbound messages count as unread and awaiting a reply and
 * raise `channel.message.received` (for chats whose privacy is open, as WhatsApp's do); outbound
 * ones are recorded by the send verb (`recordSent`), which raises `channel.message.sent`.
 */
export async function appendMessage(
  tx: DbOrTx,
  channel: MessagingChannelRow,
  chatId: string,
  m: { direction: "inbound" | "outbound"; text: string; clientMessageId?: string; displayName?: string; handleMasked: string },
): Promise<MessagingMessageRow | null> {
  const [row] = await tx
    .insert(messagingMessages)
    .values({
      tenantId: channel.tenantId,
      channelId: channel.id,
      chatId,
      direction: m.direction,
      text: m.text,
      clientMessageId: m.clientMessageId ?? null,
      // Millisecond precision: what the answers show is exactly what `before` keys on.
      createdAt: sql`date_trunc('milliseconds', clock_timestamp())`,
    })
    .onConflictDoNothing({
      target: [messagingMessages.channelId, messagingMessages.chatId, messagingMessages.clientMessageId],
      where: sql`client_message_id IS NOT NULL`,
    })
    .returning();
  if (!row) return null;
  const inbound = m.direction === "inbound";
  await tx
    .insert(messagingConversations)
    .values({
      tenantId: channel.tenantId,
      channelId: channel.id,
      chatId,
      privacyState: privacyStateOf(channel.id, chatId),
      displayName: m.displayName ?? null,
      handleMasked: m.handleMasked,
      kind: "contact",
      lastActivityAt: row.createdAt,
      lastPreview: m.text.slice(0, PREVIEW_CHARS),
      lastFromMe: !inbound,
      lastMessageId: row.id,
      unreadCount: inbound ? 1 : 0,
      awaitingReply: inbound,
    })
    .onConflictDoUpdate({
      target: [messagingConversations.channelId, messagingConversations.chatId],
      set: {
        lastActivityAt: row.createdAt,
        lastPreview: m.text.slice(0, PREVIEW_CHARS),
        lastFromMe: !inbound,
        lastMessageId: row.id,
        unreadCount: inbound ? sql`${messagingConversations.unreadCount} + 1` : sql`0`,
        awaitingReply: inbound,
      },
    });
  await tx
    .update(webChatSessions)
    .set({ expiresAt: new Date(row.createdAt.getTime() + SESSION_DAYS * 86_400_000) })
    .where(and(eq(webChatSessions.channelId, channel.id), eq(webChatSessions.chatId, chatId)));
  announceAfterCommit(tx, channel.id, chatId);
  if (!inbound) return row;
  const [p] = await tx
    .select({ state: messagingChatPrivacy.state })
    .from(messagingChatPrivacy)
    .where(and(eq(messagingChatPrivacy.channelId, channel.id), eq(messagingChatPrivacy.chatId, chatId)))
    .limit(1);
  if (effectivePrivacy(channel.privacyMode, p?.state) === "open") {
    await recordMessageEvent(
      tx,
      channel,
      chatId,
      { id: row.id, timestamp: Math.floor(row.createdAt.getTime() / 1000), text: row.text, type: row.messageType, media: null },
      "inbound",
    );
  }
  return row;
}

export async function messageByClientId(db: DbOrTx, channelId: string, chatId: string, clientMessageId: string): Promise<MessagingMessageRow | null> {
  const [row] = await db
    .select()
    .from(messagingMessages)
    .where(and(eq(messagingMessages.channelId, channelId), eq(messagingMessages.chatId, chatId), eq(messagingMessages.clientMessageId, clientMessageId)))
    .limit(1);
  return row ?? null;
}

/** Messages of a conversation after the one with id `afterId` (all when null), oldest first. */
export async function messagesAfter(db: DbOrTx, channelId: string, chatId: string, afterId: string | null, limit: number): Promise<MessagingMessageRow[]> {
  const same = and(eq(messagingMessages.channelId, channelId), eq(messagingMessages.chatId, chatId));
  const after = afterId
    ? gt(
        messagingMessages.seq,
        sql`coalesce((select m.seq from ${messagingMessages} m where m.id = ${afterId} and m.channel_id = ${channelId} and m.chat_id = ${chatId}), 0)`,
      )
    : undefined;
  return db.select().from(messagingMessages).where(and(same, after)).orderBy(asc(messagingMessages.seq)).limit(limit);
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
