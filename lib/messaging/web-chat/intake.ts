import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { messagingChatPrivacy, messagingConversations, messagingMessages, type MessagingMessageRow, type WebChatSessionRow } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import { recordEvents, type NewEvent } from "../../outbox/record-event";
import { processGlobal } from "../../util/process-global";
import { maskHandle } from "../chat-id";
import { effectivePrivacy, privacyStateOf } from "../chat-privacy";
import { messageEvent } from "../message-events";
import type { ChatPlace } from "./place";
import { VISITOR_NAME } from "./sessions";
import { announce } from "./bus";
import { SESSION_DAYS } from "./store";

/** A visitor's message waiting for its batch; `stored` is the row its `clientMessageId` holds, `replayed` when an earlier request stored it. */
type Pending = {
  db: Db;
  place: ChatPlace;
  session: WebChatSessionRow;
  text: string;
  clientMessageId: string;
  resolve: (r: { row: MessagingMessageRow; replayed: boolean }) => void;
  reject: (err: unknown) => void;
};

/** More would only make one transaction (and the tenant lock it holds) longer; the rest waits for the next batch. */
const MAX_BATCH = 256;
const PREVIEW_CHARS = 200;

const g = processGlobal("web-chat-intake", () => ({ queues: new Map<string, Pending[]>(), draining: new Set<string>(), batches: 0, messages: 0 }));

/** Batches written by this process and the messages they held (tests, and profiling the bench). */
export const intakeStats = () => ({ batches: g.batches, messages: g.messages });

const keyOf = (p: Pick<Pending, "place" | "session" | "clientMessageId">) => `${p.place.channel.id}\u0000${p.session.chatId}\u0000${p.clientMessageId}`;

/**
 * Group commit of visitor messages. Every message and its outbox event is written under its
 * tenant's row lock (outbox and `seq` order = commit order), so one tenant's messages run one
 * transaction at a time whatever we do; what we choose is how many share a transaction. A message
 * that arrives while this process has a batch of its tenant in flight waits for that batch to end
 * and goes in the next, together with every other that arrived meanwhile: one lock, a few
 * set-based statements, one outbox row per message as before. Alone, a message goes at once (no
 * timer). The promise settles after the commit: the row stored for this `clientMessageId`, and
 * `replayed` when an earlier request (another batch, or an earlier one in this batch) stored it.
 */
export function intakeVisitorMessage(
  db: Db,
  place: ChatPlace,
  session: WebChatSessionRow,
  m: { text: string; clientMessageId: string },
): Promise<{ row: MessagingMessageRow; replayed: boolean }> {
  return new Promise((resolve, reject) => {
    const tenantId = place.tenantId;
    let q = g.queues.get(tenantId);
    if (!q) g.queues.set(tenantId, (q = []));
    q.push({ db, place, session, ...m, resolve, reject });
    if (!g.draining.has(tenantId)) void drain(tenantId);
  });
}

async function drain(tenantId: string): Promise<void> {
  g.draining.add(tenantId);
  try {
    for (;;) {
      const q = g.queues.get(tenantId);
      if (!q?.length) break;
      const batch = q.splice(0, MAX_BATCH);
      // runBatch answers every message itself; should it throw anyway, none is left waiting.
      await runBatch(tenantId, batch).catch((err) => {
        for (const p of batch) p.reject(err);
      });
    }
  } finally {
    for (const p of g.queues.get(tenantId) ?? []) p.reject(new Error("web chat intake stopped"));
    g.queues.delete(tenantId);
    g.draining.delete(tenantId);
  }
}

/**
 * One batch; never throws: each message gets its own answer. If the batch's transaction fails,
 * each distinct message is tried again alone, so a message the database refuses fails only itself.
 */
async function runBatch(tenantId: string, batch: Pending[]): Promise<void> {
  // A clientMessageId twice in one batch: the first is written, the others answer what it stored.
  const groups = new Map<string, Pending[]>();
  for (const p of batch) {
    const k = keyOf(p);
    const same = groups.get(k);
    if (same) same.push(p);
    else groups.set(k, [p]);
  }
  const leaders = [...groups.values()].map((ps) => ps[0]);
  let written: Map<string, MessagingMessageRow>;
  try {
    written = await writeBatch(batch[0].db, tenantId, leaders);
    g.batches++;
    g.messages += batch.length;
  } catch (err) {
    if (groups.size > 1) {
      for (const ps of groups.values()) await runBatch(tenantId, ps);
    } else for (const p of batch) p.reject(err);
    return;
  }
  // Not written: the conversation holds that clientMessageId from an earlier request.
  const earlier = new Map<string, MessagingMessageRow>();
  const missing = leaders.filter((l) => !written.has(keyOf(l)));
  try {
    for (const row of await storedByClientIds(batch[0].db, tenantId, missing))
      earlier.set(`${row.channelId}\u0000${row.chatId}\u0000${row.clientMessageId}`, row);
  } catch (err) {
    for (const l of missing) for (const p of groups.get(keyOf(l))!) p.reject(err);
    for (const l of missing) groups.delete(keyOf(l));
  }
  for (const [k, ps] of groups) {
    const mine = written.get(k);
    const row = mine ?? earlier.get(k);
    if (!row) {
      for (const p of ps) p.reject(new Error(`web chat: message ${k} neither stored nor found`));
      continue;
    }
    for (const [i, p] of ps.entries()) p.resolve({ row, replayed: !mine || i > 0 });
  }
}

async function storedByClientIds(db: Db, tenantId: string, ps: Pending[]): Promise<MessagingMessageRow[]> {
  if (!ps.length) return [];
  return db
    .select()
    .from(messagingMessages)
    .where(
      and(
        eq(messagingMessages.tenantId, tenantId),
        inArray(
          messagingMessages.chatId,
          ps.map((p) => p.session.chatId),
        ),
        inArray(
          messagingMessages.clientMessageId,
          ps.map((p) => p.clientMessageId),
        ),
      ),
    );
}

/**
 * The batch's one tenant transaction: the messages (ON CONFLICT on the conversation's
 * clientMessageId: a resend writes nothing), each conversation's record once (last message, unread
 * count raised by its new messages), the sessions' new expiry, and one `channel.message.received`
 * per message in `seq` order for chats whose privacy is open. The privacy list is read before the
 * lock: it only decides whether events are raised, and a change racing a message could go either
 * way anyway. Returns the written rows by key.
 */
async function writeBatch(db: Db, tenantId: string, ps: Pending[]): Promise<Map<string, MessagingMessageRow>> {
  const chatIds = [...new Set(ps.map((p) => p.session.chatId))];
  const privacy = await db
    .select({ channelId: messagingChatPrivacy.channelId, chatId: messagingChatPrivacy.chatId, state: messagingChatPrivacy.state })
    .from(messagingChatPrivacy)
    .where(and(eq(messagingChatPrivacy.tenantId, tenantId), inArray(messagingChatPrivacy.chatId, chatIds)));
  const stateOf = new Map(privacy.map((p) => [`${p.channelId}\u0000${p.chatId}`, p.state]));
  const byKey = new Map(ps.map((p) => [keyOf(p), p]));

  return inTenantTransaction(db, tenantId, async (tx) => {
    // Two messages of one conversation in a batch get distinct milliseconds (the member's history pages on them).
    const nth = new Map<string, number>();
    const values = ps.map((p) => {
      const chat = `${p.place.channel.id}\u0000${p.session.chatId}`;
      const k = nth.get(chat) ?? 0;
      nth.set(chat, k + 1);
      return {
        tenantId,
        channelId: p.place.channel.id,
        chatId: p.session.chatId,
        direction: "inbound" as const,
        text: p.text,
        clientMessageId: p.clientMessageId,
        createdAt: sql`date_trunc('milliseconds', clock_timestamp()) + ${k} * interval '1 millisecond'`,
      };
    });
    const rows = await tx
      .insert(messagingMessages)
      .values(values)
      .onConflictDoNothing({
        target: [messagingMessages.channelId, messagingMessages.chatId, messagingMessages.clientMessageId],
        where: sql`client_message_id IS NOT NULL`,
      })
      .returning();
    const written = new Map<string, MessagingMessageRow>();
    if (!rows.length) return written;
    rows.sort((a, b) => a.seq - b.seq);

    type Chat = { p: Pending; last: MessagingMessageRow; count: number };
    const chats = new Map<string, Chat>();
    for (const row of rows) {
      const k = `${row.channelId}\u0000${row.chatId}\u0000${row.clientMessageId}`;
      written.set(k, row);
      const p = byKey.get(k)!;
      const chat = `${row.channelId}\u0000${row.chatId}`;
      const c = chats.get(chat);
      if (c) {
        c.last = row;
        c.count++;
      } else chats.set(chat, { p, last: row, count: 1 });
    }

    await tx
      .insert(messagingConversations)
      .values(
        // In one order (the conversations' key), so two writers of the same rows cannot deadlock.
        [...chats.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([, { p, last, count }]) => ({
            tenantId,
            channelId: last.channelId,
            chatId: last.chatId,
            privacyState: privacyStateOf(last.channelId, last.chatId),
            displayName: p.session.name ?? VISITOR_NAME,
            handleMasked: maskHandle(last.chatId),
            kind: "contact" as const,
            lastActivityAt: last.createdAt,
            lastPreview: (last.text ?? "").slice(0, PREVIEW_CHARS),
            lastFromMe: false,
            lastMessageId: last.id,
            unreadCount: count,
            awaitingReply: true,
          })),
      )
      .onConflictDoUpdate({
        target: [messagingConversations.channelId, messagingConversations.chatId],
        set: {
          lastActivityAt: sql`excluded.last_activity_at`,
          lastPreview: sql`excluded.last_preview`,
          lastFromMe: false,
          lastMessageId: sql`excluded.last_message_id`,
          unreadCount: sql`${messagingConversations.unreadCount} + excluded.unread_count`,
          awaitingReply: true,
        },
      });

    const expiry = [...chats.values()].map(({ last }) => ({
      channel_id: last.channelId,
      chat_id: last.chatId,
      exp: new Date(last.createdAt.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
    }));
    await tx.execute(sql`
      update web_chat_sessions s set expires_at = v.exp
      from jsonb_to_recordset(${JSON.stringify(expiry)}::jsonb) as v(channel_id uuid, chat_id text, exp timestamptz)
      where s.channel_id = v.channel_id and s.chat_id = v.chat_id`);

    const events: NewEvent[] = [];
    for (const row of rows) {
      const p = byKey.get(`${row.channelId}\u0000${row.chatId}\u0000${row.clientMessageId}`)!;
      if (effectivePrivacy(p.place.channel.privacyMode, stateOf.get(`${row.channelId}\u0000${row.chatId}`)) !== "open") continue;
      events.push(
        messageEvent(
          p.place.channel,
          row.chatId,
          { id: row.id, timestamp: Math.floor(row.createdAt.getTime() / 1000), text: row.text, type: row.messageType, media: null },
          "inbound",
        ),
      );
    }
    await recordEvents(tx, events);
    await announce(tx, rows);
    return written;
  });
}
