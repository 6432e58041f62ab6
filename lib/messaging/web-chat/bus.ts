import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import type postgres from "postgres";
import { dbDriver, getDb, sessionClient, type DbOrTx } from "../../../db/client";
import { afterCommit } from "../../../db/transaction";
import { config } from "../../config";
import { processGlobal } from "../../util/process-global";
import { type ChatMessageFields, presentChatMessage } from "./present";

/** The PostgreSQL channel on which a new web-chat message is announced to every web process. */
export const WEB_CHAT_CHANNEL = "crm_web_chat";
/** Emitted to every subscriber when notifications may have been lost (the LISTEN connection came back). */
const RESYNC = "*";
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more: a longer message is announced without itself. */
const MAX_PAYLOAD_BYTES = 7_999;

/**
 * What a stream is told: a committed message of its conversation (its `seq`, id and the event's
 * data, the JSON the visitor's side shows), or null: "read the store" (a message too long for a
 * notification, or notifications may have been lost).
 */
export type News = { seq: number; id: string; data: string } | null;

type Bus = { emitter: EventEmitter; listening: Promise<void> | undefined };
const g = processGlobal("web-chat-bus", (): Bus => ({ emitter: new EventEmitter().setMaxListeners(0), listening: undefined }));

export const conversationTopic = (channelId: string, chatId: string) => `${channelId}:${chatId}`;

/**
 * A notification's payload: `topic`, or `topic\tseq\tid\tdata` (a topic holds no tab, and JSON
 * escapes its own). Every process gets every notification: one without a stream of its topic here
 * is dropped before anything else is parsed.
 */
function dispatch(payload: string): void {
  const a = payload.indexOf("\t");
  const topic = a < 0 ? payload : payload.slice(0, a);
  if (!g.emitter.listenerCount(topic)) return;
  if (a < 0) return void g.emitter.emit(topic, null);
  const b = payload.indexOf("\t", a + 1);
  const c = payload.indexOf("\t", b + 1);
  const news: News = { seq: Number(payload.slice(a + 1, b)), id: payload.slice(b + 1, c), data: payload.slice(c + 1) };
  g.emitter.emit(topic, news);
}

/**
 * On PostgreSQL, one LISTEN per web process, opened with the first open stream: postgres.js gives
 * `listen` a dedicated connection of the same database (NOTIFY is per database) and listens again
 * after a reconnect, when every stream re-reads the store (what was announced meanwhile is lost).
 * On the embedded database there is one process: the emitter alone carries the news.
 */
function ensureListening(): Promise<void> {
  g.listening ??= (async () => {
    if ((await dbDriver()) !== "postgres") return;
    // Behind a transaction-mode pooler LISTEN needs PostgreSQL itself (DATABASE_DIRECT_URL).
    const client = config().DATABASE_DIRECT_URL ? sessionClient("crm-web-chat") : ((await getDb()) as unknown as { $client: postgres.Sql }).$client;
    let first = true;
    await client.listen(WEB_CHAT_CHANNEL, dispatch, () => {
      if (!first) g.emitter.emit(RESYNC, null);
      first = false;
    });
  })().catch((err) => {
    g.listening = undefined;
    throw err;
  });
  return g.listening;
}

/** Calls `onNews` with each message of the conversation, in commit order, or null when the store must be read; returns the unsubscribe. */
export async function subscribe(topic: string, onNews: (news: News) => void): Promise<() => void> {
  await ensureListening();
  g.emitter.on(topic, onNews);
  g.emitter.on(RESYNC, onNews);
  return () => {
    g.emitter.off(topic, onNews);
    g.emitter.off(RESYNC, onNews);
  };
}

function payloadOf(m: ChatMessageFields): string {
  const topic = conversationTopic(m.channelId, m.chatId);
  const full = `${topic}\t${m.seq}\t${m.id}\t${JSON.stringify(presentChatMessage(m))}`;
  return Buffer.byteLength(full) <= MAX_PAYLOAD_BYTES ? full : topic;
}

/**
 * Announces messages to the streams of their conversations, on every web process, with the
 * messages themselves: a stream sends them on without reading the store. Called inside the
 * tenant transaction that stores them, in `seq` order: PostgreSQL delivers a transaction's
 * notifications at its commit, in the order sent, and transactions' in commit order, which for a
 * conversation (written under its tenant's lock) is `seq` order. So a stream that applies them in
 * the order received, skipping what it has, neither loses nor repeats one. No commit, no
 * notification; a failed NOTIFY fails the write. On the embedded database (one process), the
 * same payloads go to the emitter after commit.
 */
export async function announce(tx: DbOrTx, messages: ChatMessageFields[]): Promise<void> {
  if (!messages.length) return;
  const payloads = messages.map(payloadOf);
  if ((await dbDriver()) !== "postgres") {
    afterCommit(
      tx,
      "web-chat:announce",
      () => [] as string[],
      (ps) => {
        for (const p of ps) dispatch(p);
      },
    ).push(...payloads);
    return;
  }
  await tx.execute(sql`select pg_notify(${WEB_CHAT_CHANNEL}, p) from jsonb_array_elements_text(${JSON.stringify(payloads)}::jsonb) as p`);
}
