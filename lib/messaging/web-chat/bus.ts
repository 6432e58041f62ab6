import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import type postgres from "postgres";
import { dbDriver, getDb, sessionClient } from "../../../db/client";
import { config } from "../../config";
import { logger } from "../../log/logger";
import { processGlobal } from "../../util/process-global";

/** The PostgreSQL channel on which a new web-chat message is announced to every web process. */
export const WEB_CHAT_CHANNEL = "crm_web_chat";
/** Emitted to every subscriber when notifications may have been lost (the LISTEN connection came back). */
const RESYNC = "*";

type Bus = { emitter: EventEmitter; listening: Promise<void> | undefined };
const g = processGlobal("web-chat-bus", (): Bus => ({ emitter: new EventEmitter().setMaxListeners(0), listening: undefined }));

export const conversationTopic = (channelId: string, chatId: string) => `${channelId}:${chatId}`;

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
    await client.listen(
      WEB_CHAT_CHANNEL,
      (topic) => g.emitter.emit(topic),
      () => {
        if (!first) g.emitter.emit(RESYNC);
        first = false;
      },
    );
  })().catch((err) => {
    g.listening = undefined;
    throw err;
  });
  return g.listening;
}

/** Calls `onNews` whenever the conversation may have new messages; returns the unsubscribe. */
export async function subscribe(topic: string, onNews: () => void): Promise<() => void> {
  await ensureListening();
  g.emitter.on(topic, onNews);
  g.emitter.on(RESYNC, onNews);
  return () => {
    g.emitter.off(topic, onNews);
    g.emitter.off(RESYNC, onNews);
  };
}

/**
 * Announces committed messages to the streams of their conversations, on every web process, in
 * one statement (a batch of visitor messages touches many conversations). Best effort: the
 * messages are stored already, and a stream also re-reads the store on its heartbeat.
 */
export function publish(...topics: string[]): void {
  if (!topics.length) return;
  void (async () => {
    if ((await dbDriver()) !== "postgres") {
      for (const t of topics) g.emitter.emit(t);
      return;
    }
    const db = await getDb();
    await db.execute(sql`select pg_notify(${WEB_CHAT_CHANNEL}, t) from jsonb_array_elements_text(${JSON.stringify(topics)}::jsonb) as t`);
  })().catch((err) => logger().warn({ err }, "web chat: could not announce a message; streams see it on their next heartbeat"));
}
