import type { Db } from "../../../db/client";
import type { WebChatSessionRow } from "../../../db/schema";
import { logger } from "../../log/logger";
import { conversationTopic, subscribe } from "./bus";
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
 * message is announced on the bus (PostgreSQL NOTIFY across web processes, lib/messaging/web-chat/bus.ts);
 * the stream then reads the store from its last id, so an announcement lost or coalesced loses no
 * message, and reads it again on every heartbeat.
 */
export function chatStream(db: Db, session: WebChatSessionRow, opts: { after: string | null; signal: AbortSignal }): Response {
  const encoder = new TextEncoder();
  let last = opts.after;
  let closed = false;
  let reading = false;
  let again = false;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let ender: ReturnType<typeof setTimeout> | undefined;
  let ctrl: ReadableStreamDefaultController<Uint8Array> | undefined;

  const close = () => {
    if (closed) return;
    closed = true;
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
  // One read at a time; news that comes during a read makes one more read after it.
  const pump = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const rows = await messagesAfter(db, session.channelId, session.chatId, last, PAGE);
        for (const r of rows) {
          send(`id: ${r.id}\nevent: message\ndata: ${JSON.stringify(presentChatMessage(r))}\n\n`);
          last = r.id;
        }
        if (rows.length === PAGE) again = true;
      } while (again && !closed);
    } catch (err) {
      logger().warn({ err }, "web chat stream: reading the store failed; the next heartbeat tries again");
    } finally {
      reading = false;
    }
  };

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      ctrl = controller;
      if (opts.signal.aborted) return close();
      opts.signal.addEventListener("abort", close, { once: true });
      send("retry: 2000\n\n");
      unsubscribe = await subscribe(conversationTopic(session.channelId, session.chatId), () => void pump());
      if (closed) return unsubscribe();
      heartbeat = setInterval(() => {
        send(": ping\n\n");
        void pump();
      }, HEARTBEAT_MS);
      ender = setTimeout(close, MAX_STREAM_MS);
      void pump();
    },
    cancel: close,
  });
  return new Response(stream, { status: 200, headers: STREAM_HEADERS });
}
