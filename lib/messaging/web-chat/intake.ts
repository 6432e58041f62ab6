import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { messagingConversations, messagingMessages, type MessagingMessageRow, webChatSessions, type WebChatSessionRow } from "../../../db/schema";
import { inTenantTransaction, settleAll } from "../../../db/transaction";
import { recordEvents, type NewEvent } from "../../outbox/record-event";
import { processGlobal } from "../../util/process-global";
import { maskHandle } from "../chat-id";
import { effectivePrivacy } from "../chat-privacy";
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
 * The batch's one tenant transaction: one statement for the messages, the conversations' records
 * and the sessions' new expiry (`batchStatement`), then one `channel.message.received`
 * per message in `seq` order for chats whose privacy is open (the statement returns each chat's
 * privacy state with its rows: no read of its own). Returns the written rows by key.
 */
async function writeBatch(db: Db, tenantId: string, ps: Pending[]): Promise<Map<string, MessagingMessageRow>> {
  const byKey = new Map(ps.map((p) => [keyOf(p), p]));

  return inTenantTransaction(db, tenantId, async (tx) => {
    // Two messages of one conversation in a batch get distinct milliseconds (the member's history pages on them).
    const nth = new Map<string, number>();
    const values = ps.map((p, i) => {
      const chat = `${p.place.channel.id}\u0000${p.session.chatId}`;
      const k = nth.get(chat) ?? 0;
      nth.set(chat, k + 1);
      return { i, channel_id: p.place.channel.id, chat_id: p.session.chatId, text: p.text, client_message_id: p.clientMessageId, k };
    });
    // What a conversation not listed yet is created with (a session lists its conversation when it opens, so rarely used).
    const chatsOf = new Map<string, { channel_id: string; chat_id: string; display_name: string; handle_masked: string }>();
    for (const p of ps)
      chatsOf.set(`${p.place.channel.id}\u0000${p.session.chatId}`, {
        channel_id: p.place.channel.id,
        chat_id: p.session.chatId,
        display_name: p.session.name ?? VISITOR_NAME,
        handle_masked: maskHandle(p.session.chatId),
      });
    const raw = rowsOf<RawMessage>(await tx.execute(batchStatement(tenantId, values, [...chatsOf.values()])));
    const stateOf = new Map(raw.map((r) => [`${r.channel_id}\u0000${r.chat_id}`, r.privacy_state]));
    const rows = raw.map((r) => messageRow(tenantId, r));
    const written = new Map<string, MessagingMessageRow>();
    if (!rows.length) return written;
    rows.sort((a, b) => a.seq - b.seq);
    for (const row of rows) written.set(`${row.channelId}\u0000${row.chatId}\u0000${row.clientMessageId}`, row);

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
    // Both in one round trip (postgres.js pipelines a transaction's concurrent statements), in the tenant's lock.
    // settleAll: neither is left in flight if the other fails and the transaction rolls back.
    await settleAll([recordEvents(tx, events), announce(tx, rows)]);
    return written;
  });
}

type RawMessage = {
  id: string;
  seq: string | number;
  channel_id: string;
  chat_id: string;
  text: string | null;
  client_message_id: string;
  at: string;
  privacy_state: string | null;
};
const messageRow = (tenantId: string, r: RawMessage): MessagingMessageRow => ({
  id: r.id,
  seq: Number(r.seq),
  tenantId,
  channelId: r.channel_id,
  chatId: r.chat_id,
  direction: "inbound",
  messageType: "text",
  text: r.text,
  authorId: null,
  clientMessageId: r.client_message_id,
  createdAt: new Date(r.at),
});

/**
 * The batch in one statement, its rows passed as two JSON parameters (building a multi-row insert
 * with a parameter per value was a large part of a message's CPU): the messages (ON CONFLICT on
 * the conversation's clientMessageId: a resend writes nothing), then from the rows written, each
 * conversation's record once, in the conversations' key order so two writers cannot deadlock
 * (last message, unread count raised by its new messages), and the sessions' new expiry.
 */
function batchStatement(
  tenantId: string,
  values: { i: number; channel_id: string; chat_id: string; text: string; client_message_id: string; k: number }[],
  chats: { channel_id: string; chat_id: string; display_name: string; handle_masked: string }[],
) {
  return sql`
    with m as (
      insert into ${messagingMessages} (tenant_id, channel_id, chat_id, direction, text, client_message_id, created_at)
      select ${tenantId}::uuid, v.channel_id, v.chat_id, 'inbound', v.text, v.client_message_id,
        date_trunc('milliseconds', clock_timestamp()) + v.k * interval '1 millisecond'
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(i int, channel_id uuid, chat_id text, text text, client_message_id text, k int)
      order by v.i
      on conflict (channel_id, chat_id, client_message_id) where client_message_id is not null do nothing
      returning id, seq, channel_id, chat_id, text, client_message_id, created_at),
    last as (
      select distinct on (m.channel_id, m.chat_id) m.channel_id, m.chat_id, m.id, m.text, m.created_at,
        count(*) over (partition by m.channel_id, m.chat_id) as n
      from m order by m.channel_id, m.chat_id, m.seq desc),
    c as (
      insert into ${messagingConversations} as c (tenant_id, channel_id, chat_id, privacy_state, display_name, handle_masked, kind,
        last_activity_at, last_preview, last_from_me, last_message_id, unread_count, awaiting_reply)
      select ${tenantId}::uuid, l.channel_id, l.chat_id,
        (select p.state from messaging_chat_privacy p where p.channel_id = l.channel_id and p.chat_id = l.chat_id),
        d.display_name, d.handle_masked, 'contact', l.created_at, left(coalesce(l.text, ''), ${PREVIEW_CHARS}), false, l.id::text, l.n, true
      from last l
      join jsonb_to_recordset(${JSON.stringify(chats)}::jsonb) as d(channel_id uuid, chat_id text, display_name text, handle_masked text)
        on d.channel_id = l.channel_id and d.chat_id = l.chat_id
      order by l.channel_id, l.chat_id
      on conflict (channel_id, chat_id) do update set
        last_activity_at = excluded.last_activity_at, last_preview = excluded.last_preview, last_from_me = false,
        last_message_id = excluded.last_message_id, unread_count = c.unread_count + excluded.unread_count, awaiting_reply = true),
    s as (
      update ${webChatSessions} s set expires_at = l.created_at + ${`${SESSION_DAYS} days`}::interval
      from last l where s.channel_id = l.channel_id and s.chat_id = l.chat_id)
    select id, seq::text as seq, channel_id, chat_id, text, client_message_id, to_json(created_at) #>> '{}' as at,
      (select p.state from messaging_chat_privacy p where p.channel_id = m.channel_id and p.chat_id = m.chat_id) as privacy_state
    from m`;
}
