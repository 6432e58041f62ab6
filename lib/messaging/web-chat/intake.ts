import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { dbDriver, type Db, genericPlans } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { events, messagingConversations, messagingMessages, type MessagingMessageRow, webChatSessions, type WebChatSessionRow } from "../../../db/schema";
import { QUEUE_DELIVERIES, wakeFor } from "../../outbox/record-event";
import { processGlobal } from "../../util/process-global";
import { maskHandle } from "../chat-id";
import { messageEvent } from "../message-events";
import type { ChatPlace } from "./place";
import { VISITOR_NAME } from "./sessions";
import { announceCommitted, announcedAround, conversationTopic, MAX_PAYLOAD_BYTES, WEB_CHAT_CHANNEL } from "./bus";
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
 * and goes in the next, together with every other that arrived meanwhile: one lock, one
 * statement (its own transaction), one outbox row per message as before. Alone, a message goes at once (no
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
 * The batch as ONE statement outside any transaction (`batchStatement`): it takes the tenant's row
 * lock first, as `inTenantTransaction` does, and writes the messages, the conversations' records,
 * the sessions' new expiry, one `channel.message.received` per message of an open chat (in `seq`
 * order, with its delivery entries) and, on PostgreSQL, the NOTIFY of each message; committing on
 * its own, it holds the lock only while the server runs and commits it, never across a round trip
 * of ours or a wait of this process's event loop (it was five statements and four round trips
 * inside the lock). Returns the written rows by key.
 */
async function writeBatch(db: Db, tenantId: string, ps: Pending[]): Promise<Map<string, MessagingMessageRow>> {
  const notify = (await dbDriver()) === "postgres";
  // Two messages of one conversation in a batch get distinct milliseconds (the member's history pages on them).
  const nth = new Map<string, number>();
  const values = ps.map((p, i) => {
    const chat = `${p.place.channel.id}\u0000${p.session.chatId}`;
    const k = nth.get(chat) ?? 0;
    nth.set(chat, k + 1);
    // The id is drawn here so the event and the announcement can be written beside the row; a resend (conflict) writes none of them.
    const id = randomUUID();
    const { data } = messageEvent(p.place.channel, p.session.chatId, { id, timestamp: 0, text: p.text, type: "text", media: null }, "inbound");
    // The statement fills in the time (drawn under the lock) and `seq`; the rest is what messageEvent and announce would write.
    delete data.timestamp;
    const shown = announcedAround(id, p.text, p.clientMessageId);
    return {
      i,
      id,
      channel_id: p.place.channel.id,
      chat_id: p.session.chatId,
      text: p.text,
      client_message_id: p.clientMessageId,
      k,
      whitelist: p.place.channel.privacyMode === "whitelist",
      data,
      topic: conversationTopic(p.place.channel.id, p.session.chatId),
      head: shown.head,
      tail: shown.tail,
    };
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
  // Planned once per connection: its plan does not depend on the rows' values (db/client.ts, genericPlans).
  const raw = rowsOf<RawMessage>(await genericPlans(db).execute(batchStatement(tenantId, values, [...chatsOf.values()], notify)));
  const written = new Map<string, MessagingMessageRow>();
  if (!raw.length) return written;
  const rows = raw.map((r) => messageRow(tenantId, r));
  rows.sort((a, b) => a.seq - b.seq);
  for (const row of rows) written.set(`${row.channelId}\u0000${row.chatId}\u0000${row.clientMessageId}`, row);
  // Delivery only when the tenant's webhook selected one of the events (lib/outbox: wakeFor); chat messages are not listing events.
  wakeFor(db, { delivery: raw.some((r) => r.queued > 0), matcher: false });
  // The embedded database (one process) announces through the emitter, now that the statement has committed.
  if (!notify) announceCommitted(raw.sort((a, b) => Number(a.seq) - Number(b.seq)).map((r) => r.payload));
  return written;
}

type RawMessage = {
  id: string;
  seq: string | number;
  channel_id: string;
  chat_id: string;
  text: string | null;
  client_message_id: string;
  at: string;
  payload: string;
  /** Delivery entries the whole statement queued (the same on every row). */
  queued: number;
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

/** `created_at` as `Date.toISOString()` writes it (the column holds milliseconds), and the event's `timestamp` (whole seconds). */
const ISO_MS = sql.raw(`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`);
const ISO_S = sql.raw(`'YYYY-MM-DD"T"HH24:MI:SS".000Z"'`);

/**
 * The batch in one statement, its rows passed as two JSON parameters (building a multi-row insert
 * with a parameter per value was a large part of a message's CPU):
 * - `tenant_lock`: the tenant's row lock, taken first: the insert's `exists` on it is an
 *   uncorrelated one-time filter PostgreSQL evaluates before it writes (and locks) anything, and
 *   every other write reads the insert's rows; so the outbox's `seq` is drawn under the lock (in
 *   commit order) and lock order is the same as in every tenant transaction;
 * - the messages (ON CONFLICT on the conversation's clientMessageId: a resend writes nothing), then
 *   from the rows written, each conversation's record once, in the conversations' key order so two
 *   writers cannot deadlock (last message, unread count raised by its new messages), the sessions'
 *   new expiry;
 * - one event per written message whose chat's privacy is open (`effectivePrivacy`: not hidden, and
 *   whitelisted when the channel keeps a whitelist), in `seq` order, with their delivery entries;
 * - on PostgreSQL, each message's NOTIFY in `seq` order (delivered at commit; a volatile target list
 *   is computed after the sort), with the message as the stream sends it, or the topic alone when
 *   that passes the payload limit (lib/messaging/web-chat/bus.ts).
 */
function batchStatement(
  tenantId: string,
  values: {
    i: number;
    id: string;
    channel_id: string;
    chat_id: string;
    text: string;
    client_message_id: string;
    k: number;
    whitelist: boolean;
    data: Record<string, unknown>;
    topic: string;
    head: string;
    tail: string;
  }[],
  chats: { channel_id: string; chat_id: string; display_name: string; handle_masked: string }[],
  notify: boolean,
) {
  return sql`
    with tenant_lock as materialized (select id from tenants where id = ${tenantId}::uuid for no key update),
    v as materialized (
      select * from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(i int, id uuid, channel_id uuid, chat_id text, text text,
        client_message_id text, k int, whitelist boolean, data jsonb, topic text, head text, tail text)),
    m as (
      insert into ${messagingMessages} (id, tenant_id, channel_id, chat_id, direction, text, client_message_id, created_at)
      select v.id, ${tenantId}::uuid, v.channel_id, v.chat_id, 'inbound', v.text, v.client_message_id,
        date_trunc('milliseconds', clock_timestamp()) + v.k * interval '1 millisecond'
      from v where exists (select 1 from tenant_lock)
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
      from last l where s.channel_id = l.channel_id and s.chat_id = l.chat_id),
    w as (
      select m.id, m.seq, v.whitelist, v.data, v.topic, v.head, v.tail, m.created_at at time zone 'UTC' as utc,
        (select p.state from messaging_chat_privacy p where p.channel_id = m.channel_id and p.chat_id = m.chat_id) as state
      from m join v on v.id = m.id),
    e as (
      insert into ${events} (tenant_id, event_name, entity_type, entity_id, user_id, data, occurred_at)
      select ${tenantId}::uuid, 'channel.message.received', 'channel_message', w.id::text, null,
        w.data || jsonb_build_object('timestamp', to_char(date_trunc('second', w.utc), ${ISO_S})), clock_timestamp()
      from w
      where w.state is distinct from 'hidden' and (not w.whitelist or w.state = 'whitelisted')
      order by w.seq
      returning id, seq, tenant_id, event_name, entity_id),
    ${QUEUE_DELIVERIES},
    a as (
      select w.id, case when octet_length(p.full) <= ${MAX_PAYLOAD_BYTES} then p.full else w.topic end as payload
      from w, lateral (select w.topic || chr(9) || w.seq || chr(9) || w.id || chr(9) || w.head || to_char(w.utc, ${ISO_MS}) || w.tail as full) p),
    n as (${notify ? sql`select pg_notify(${WEB_CHAT_CHANNEL}, a.payload) from a join w on w.id = a.id order by w.seq` : sql`select 1 where false`})
    select m.id, m.seq::text as seq, m.channel_id, m.chat_id, m.text, m.client_message_id, to_json(m.created_at) #>> '{}' as at,
      a.payload,
      (select count(*) from n) as notified, (select count(*) from queued)::int as queued
    from m join a on a.id = m.id`;
}
