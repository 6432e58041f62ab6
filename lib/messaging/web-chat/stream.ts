import type { Db } from "../../../db/client";
import type { WebChatSessionRow } from "../../../db/schema";
import { logger } from "../../log/logger";
import { conversationTopic, type News, subscribe } from "./bus";
import { messagesAfter, presentChatMessage } from "./store";

/** A comment line this often keeps proxies from closing an idle stream; each beat also re-reads the store. */
const HEARTBEAT_MS = 15_000;
/** A stream ends after this long; the browser reconnects (with `Last-Event-ID`), and the token is checked again. */
const MAX_STREAM_MS = 10 * 60_000;
const PAGE = 200;

export const STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // `no-transform`: no compression layer may hold events back to fill a block.
  "cache-control": "private, no-store, no-transform",
  "x-accel-buffering": "no",
};

/**
 * `GET .../chat/stream`: Server-Sent Events of the conversation's messages after `after` (the
 * `Last-Event-ID` the browser sends back on reconnect), each `event: message` with its id. A new
 * message is announced on the bus with itself (PostgreSQL NOTIFY across web processes, in commit
 * order: lib/messaging/web-chat/bus.ts) and sent on as it came, without reading the store. The
 * store is read when the stream opens, when the bus says news may have been lost or left out (a
 * message too long to carry, the LISTEN connection back), and on every heartbeat. News is applied
 * one item at a time in the order received, and a message whose `seq` is not past the last one
 * sent is skipped, so a read and the announcements overlapping it repeat nothing; until a read
 * has told the stream where it stands (or after a read failed), news makes it read again.
 */
export function chatStream(db: Db, session: WebChatSessionRow, opts: { after: string | null; signal: AbortSignal }): Response {
  const encoder = new TextEncoder();
  let last = opts.after;
  /** The `seq` of `last` (0: nothing sent and no `after`), null while unknown. */
  let lastSeq: number | null = opts.after ? null : 0;
  let closed = false;
  let running = false;
  const queue: News[] = [];
  let unsubscribe: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let ender: ReturnType<typeof setTimeout> | undefined;
  let ctrl: ReadableStreamDefaultController<Uint8Array> | undefined;

  const close = () => {
    if (closed) return;
    closed = true;
    queue.length = 0;
    unsubscribe?.();
    clearInterval(heartbeat);
    clearTimeout(ender);
    try {
      ctrl?.close();
    } catch {
      // already closed by the reader
    }
  };
  const send = (text: string) => {
    if (closed || !ctrl) return;
    try {
      ctrl.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };
  const deliver = (seq: number, id: string, data: string) => {
    send(`id: ${id}\nevent: message\ndata: ${data}\n\n`);
    last = id;
    lastSeq = seq;
  };
  /** Everything stored after `last`; every "read" news queued so far is answered by it. */
  const read = async () => {
    for (let i = queue.indexOf(null); i >= 0; i = queue.indexOf(null)) queue.splice(i, 1);
    try {
      for (;;) {
        const rows = await messagesAfter(db, session.channelId, session.chatId, last, PAGE);
        for (const r of rows) if (lastSeq === null || r.seq > lastSeq) deliver(r.seq, r.id, JSON.stringify(presentChatMessage(r)));
        if (rows.length < PAGE || closed) break;
      }
    } catch (err) {
      // Where the stream stands is unknown again: the next news reads, and so does the heartbeat.
      lastSeq = null;
      logger().warn({ err }, "web chat stream: reading the store failed; the next heartbeat tries again");
    }
  };
  // One item at a time, in the order received.
  const run = async () => {
    running = true;
    try {
      while (queue.length && !closed) {
        const news = queue.shift()!;
        if (news && lastSeq !== null) {
          if (news.seq > lastSeq) deliver(news.seq, news.id, news.data);
        } else await read();
      }
    } finally {
      running = false;
    }
  };
  const onNews = (news: News) => {
    if (closed) return;
    queue.push(news);
    if (!running) void run();
  };

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      ctrl = controller;
      if (opts.signal.aborted) return close();
      opts.signal.addEventListener("abort", close, { once: true });
      send("retry: 2000\n\n");
      // Subscribed before the first read: a message committed meanwhile is in the read or announced after it (or both: sent once).
      unsubscribe = await subscribe(conversationTopic(session.channelId, session.chatId), onNews);
      if (closed) return unsubscribe();
      heartbeat = setInterval(() => {
        send(": ping\n\n");
        onNews(null);
      }, HEARTBEAT_MS);
      ender = setTimeout(close, MAX_STREAM_MS);
      onNews(null);
    },
    cancel: close,
  });
  return new Response(stream, { status: 200, headers: STREAM_HEADERS });
}
