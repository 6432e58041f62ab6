import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../../db/client";
import { messagingConversations, messagingSeenMessages, messagingSentMessages, type MessagingChannelRow } from "../../../db/schema";
import { inTenantTransaction, isOpenTransaction, settleAll } from "../../../db/transaction";
import { chatKind, maskHandle } from "../chat-id";
import { privacyStateOf } from "../chat-privacy";
import { messageEvent } from "../message-events";
import { changeWithEvents, recordEvents } from "../../outbox/record-event";
import type { OutboundPart } from "./render";

/** `keep`: the adapter's own record of the message (e-mail history), written in this transaction. */
export type SentPart = { messageId: string; part: OutboundPart; at: Date; keep?: (tx: Tx) => Promise<void> };

const PREVIEW_CHARS = 200;
const textOf = (p: OutboundPart) => (p.kind === "text" ? p.text : `[template ${p.name}]`);

/**
 * What a send through the service leaves behind, in one tenant transaction: who typed each
 * message (`authorId`, read back by the detail's author rules), the conversation's last activity
 * (created on a first proactive send; answered, so not awaiting a reply and read), the deal link,
 * and one `channel.message.sent` per message, with what the adapter keeps of each (an e-mail's
 * history row: never a history row without its record, nor a record without it). The gateway echoes our messages as `message.any`
 * webhooks: the seen-message row written here makes the inbound processing skip them, and if the
 * echo was processed first, this skips the event instead: one event per message either way.
 */
export async function recordSent(
  db: DbOrTx,
  input: {
    channel: MessagingChannelRow;
    chatId: string;
    authorId: string;
    dealId: string | undefined;
    sent: SentPart[];
    /** A further write that may go in the record's statement (see `recordOneSent`), `locked` in its `where`. */
    also?: (locked: SQL) => SQL;
  },
): Promise<{ alsoWritten: boolean }> {
  const { channel, chatId, sent } = input;
  if (!sent.length) return { alsoWritten: false };
  const last = sent[sent.length - 1];
  if (sent.length === 1 && !last.keep && !isOpenTransaction(db)) {
    await recordOneSent(db, { ...input, sent: last });
    return { alsoWritten: Boolean(input.also) };
  }
  await inTenantTransaction(db, channel.tenantId, async (tx) => {
    for (const s of sent) await s.keep?.(tx);
    // The record, the conversation and the seen-message rows depend on nothing of each other: sent
    // together (pipelined on the transaction's connection), one round trip under the tenant's lock
    // instead of one each (issue 34: an agent's replies hold its tenant's lock briefly).
    const recordRow = tx
      .insert(messagingSentMessages)
      .values(
        sent.map((s) => ({
          tenantId: channel.tenantId,
          channelId: channel.id,
          chatId,
          providerMessageId: s.messageId,
          authorId: input.authorId,
          kind: s.part.kind,
          sentAt: s.at,
        })),
      )
      .onConflictDoNothing();
    const conversation = tx
      .insert(messagingConversations)
      .values({
        tenantId: channel.tenantId,
        channelId: channel.id,
        chatId,
        privacyState: privacyStateOf(channel.id, chatId),
        handleMasked: maskHandle(chatId),
        kind: chatKind(chatId),
        lastActivityAt: last.at,
        lastPreview: textOf(last.part).slice(0, PREVIEW_CHARS),
        lastFromMe: true,
        lastMessageId: last.messageId,
        unreadCount: 0,
        awaitingReply: false,
        primaryDealId: input.dealId ?? null,
      })
      .onConflictDoUpdate({
        target: [messagingConversations.channelId, messagingConversations.chatId],
        set: {
          lastActivityAt: sql`greatest(${messagingConversations.lastActivityAt}, excluded.last_activity_at)`,
          lastPreview: sql`case when excluded.last_activity_at >= ${messagingConversations.lastActivityAt} then excluded.last_preview else ${messagingConversations.lastPreview} end`,
          lastFromMe: sql`case when excluded.last_activity_at >= ${messagingConversations.lastActivityAt} then true else ${messagingConversations.lastFromMe} end`,
          lastMessageId: sql`case when excluded.last_activity_at >= ${messagingConversations.lastActivityAt} then excluded.last_message_id else ${messagingConversations.lastMessageId} end`,
          unreadCount: sql`0`,
          awaitingReply: sql`false`,
          primaryDealId: input.dealId ? sql`${input.dealId}::uuid` : sql`${messagingConversations.primaryDealId}`,
        },
      });
    const eventOf = (s: SentPart) =>
      messageEvent(
        channel,
        chatId,
        { id: s.messageId, timestamp: Math.floor(s.at.getTime() / 1000), text: s.part.kind === "text" ? s.part.text : null, type: s.part.kind, media: null },
        "outbound",
      );
    const seen = tx
      .insert(messagingSeenMessages)
      .values(sent.map((s) => ({ channelId: channel.id, messageId: s.messageId })))
      .onConflictDoNothing()
      .returning({ messageId: messagingSeenMessages.messageId });
    if (sent.length === 1) {
      // One message (a text reply): its seen row and its event are one statement, in the same round trip.
      await settleAll([recordRow, conversation, changeWithEvents(tx, channel.tenantId, () => seen.getSQL(), [eventOf(sent[0])])]);
      return;
    }
    const [, , fresh] = await settleAll([recordRow, conversation, seen]);
    const first = new Set(fresh.map((r) => r.messageId));
    // One event per message not seen before, in the order sent.
    await recordEvents(tx, sent.filter((s) => first.has(s.messageId)).map(eventOf));
  });
  return { alsoWritten: false };
}

/**
 * `recordSent` of one message with nothing the adapter keeps (a text reply on WhatsApp: every
 * agent reply), outside a caller's transaction: the same rows and event, in ONE statement that
 * takes the tenant's lock first (`changeWithEvents`) instead of a transaction of four round trips
 * (begin, the lock, the rows, commit). Each write's `where` waits for the lock, as in the
 * transaction; they commit together or not at all, and the conversation is updated by the same
 * rules (issue 34: every statement and socket write is CPU on the agents' path).
 */
async function recordOneSent(
  db: DbOrTx,
  input: { channel: MessagingChannelRow; chatId: string; authorId: string; dealId: string | undefined; sent: SentPart; also?: (locked: SQL) => SQL },
): Promise<void> {
  const { channel, chatId, sent: s } = input;
  const at = s.at.toISOString();
  const event = messageEvent(
    channel,
    chatId,
    { id: s.messageId, timestamp: Math.floor(s.at.getTime() / 1000), text: s.part.kind === "text" ? s.part.text : null, type: s.part.kind, media: null },
    "outbound",
  );
  const c = messagingConversations;
  const newer = sql`excluded.last_activity_at >= ${c.lastActivityAt}`;
  await changeWithEvents(
    db,
    channel.tenantId,
    (locked) => sql`
      insert into ${messagingSeenMessages} (channel_id, message_id)
      select ${channel.id}::uuid, ${s.messageId} where ${locked}
      on conflict do nothing
      returning message_id`,
    [event],
    (locked) => [
      sql`
        insert into ${messagingSentMessages} (tenant_id, channel_id, chat_id, provider_message_id, author_id, kind, sent_at)
        select ${channel.tenantId}::uuid, ${channel.id}::uuid, ${chatId}, ${s.messageId}, ${input.authorId}::uuid, ${s.part.kind}, ${at}::timestamptz
        where ${locked}
        on conflict do nothing`,
      sql`
        insert into ${c} (tenant_id, channel_id, chat_id, privacy_state, handle_masked, kind, last_activity_at, last_preview,
          last_from_me, last_message_id, unread_count, awaiting_reply, primary_deal_id)
        select ${channel.tenantId}::uuid, ${channel.id}::uuid, ${chatId}, ${privacyStateOf(channel.id, chatId)}, ${maskHandle(chatId)},
          ${chatKind(chatId)}, ${at}::timestamptz, ${textOf(s.part).slice(0, PREVIEW_CHARS)}, true, ${s.messageId}, 0, false,
          ${input.dealId ?? null}::uuid
        where ${locked}
        on conflict (channel_id, chat_id) do update set
          last_activity_at = greatest(${c.lastActivityAt}, excluded.last_activity_at),
          last_preview = case when ${newer} then excluded.last_preview else ${c.lastPreview} end,
          last_from_me = case when ${newer} then true else ${c.lastFromMe} end,
          last_message_id = case when ${newer} then excluded.last_message_id else ${c.lastMessageId} end,
          unread_count = 0,
          awaiting_reply = false,
          primary_deal_id = ${input.dealId ? sql`${input.dealId}::uuid` : sql`${c.primaryDealId}`}`,
      ...(input.also ? [input.also(locked)] : []),
    ],
  );
}
