/**
 * The stream sends on the messages the bus announces (on PostgreSQL, the NOTIFY payload) without
 * reading the store: these tests fail if that path drops, repeats or reorders a message, whether
 * messages come in batches of concurrent posts, interleaved with members' replies, too long to
 * ride in a notification (the stream reads the store for them), or while a stream opens from a
 * `Last-Event-ID` in the middle of the traffic.
 */
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as replyRoute from "../../../app/api/v1/messaging/reply/route";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as messagesRoute from "../../../app/api/sites/[siteId]/chat/messages/route";
import * as sessionsRoute from "../../../app/api/sites/[siteId]/chat/sessions/route";
import * as streamRoute from "../../../app/api/sites/[siteId]/chat/stream/route";
import { getDb } from "../../../db/client";
import { messagingMessages, webChatSessions } from "../../../db/schema";
import { settleAfterCommit } from "../../../db/transaction";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { intakeVisitorMessage } from "../../../lib/messaging/web-chat/intake";
import { siteChatPlace } from "../../../lib/messaging/web-chat/place";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";
import { takeSseEvents } from "../../helpers/sse";

let t: TestTenant;
let siteId: string;
let ip = 0;
const from = () => ({ [CLIENT_ADDRESS_HEADER]: `10.11.${Math.floor(++ip / 250)}.${ip % 250}` });
const aborts: AbortController[] = [];

type Session = { sessionToken: string; conversationKey: { channelId: string; chatId: string } };
const open = async (): Promise<Session> => {
  const res = await call(sessionsRoute.POST, "POST", `/api/sites/${siteId}/chat/sessions`, { params: { siteId }, body: {}, headers: from() });
  expect(res.status).toBe(201);
  return res.body;
};
const post = async (s: Session, text: string, clientMessageId: string) => {
  const res = await call(messagesRoute.POST, "POST", `/api/sites/${siteId}/chat/messages`, {
    params: { siteId },
    body: { text, clientMessageId },
    headers: { ...from(), authorization: `Bearer ${s.sessionToken}` },
  });
  expect(res.status).toBe(201);
  return res.body.message.id as string;
};
const reply = async (s: Session, text: string) => {
  const res = await call(replyRoute.POST, "POST", "/x", { key: t.key, body: { ...s.conversationKey, body: { kind: "text", text } } });
  expect(res.body).toMatchObject({ status: "sent" });
};
const stored = async (s: Session) =>
  (await getDb())
    .select({ id: messagingMessages.id, text: messagingMessages.text })
    .from(messagingMessages)
    .where(eq(messagingMessages.chatId, s.conversationKey.chatId))
    .orderBy(asc(messagingMessages.seq));

/** An open stream collecting every event (id and data) it is sent. */
async function listen(s: Session, lastEventId?: string) {
  const abort = new AbortController();
  aborts.push(abort);
  const headers: Record<string, string> = { ...from(), authorization: `Bearer ${s.sessionToken}` };
  if (lastEventId) headers["last-event-id"] = lastEventId;
  const res = await send(streamRoute.GET, new Request(`http://localhost/api/sites/${siteId}/chat/stream`, { headers, signal: abort.signal }), { siteId });
  expect(res.status).toBe(200);
  const events: { id: string; text: string }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return;
      const taken = takeSseEvents(buf + decoder.decode(chunk.value, { stream: true }));
      buf = taken.rest;
      for (const { id, data } of taken.events) {
        if (!id) continue;
        const m = JSON.parse(data);
        expect(m.id).toBe(id);
        events.push({ id, text: m.text });
      }
    }
  })();
  return {
    events,
    /** Waits until `n` events came (or 5 s), then a little longer, so a duplicate would have time to show. */
    async settle(n: number) {
      await settleAfterCommit();
      for (const deadline = Date.now() + 5000; events.length < n && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      return events;
    },
    close: () => abort.abort(),
  };
}

beforeAll(async () => {
  t = await makeTenant();
  const channel = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Chat", transport: "web_chat" } });
  siteId = (await makeSite(t, { chat: { channelId: channel.body.id } })).id;
});
afterAll(() => {
  for (const a of aborts) a.abort();
});

describe("a stream fed by the bus's messages", () => {
  it("sends every message of concurrent batches and interleaved replies exactly once, in the store's order, and nothing of another chat", async () => {
    const [a, b] = [await open(), await open()];
    const sa = await listen(a);
    const sb = await listen(b);
    await new Promise((r) => setTimeout(r, 100));
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      work.push(post(a, `a${i}`, `a-${i}`), post(b, `b${i}`, `b-${i}`));
      if (i % 10 === 5) work.push(reply(a, `resposta ${i}`));
    }
    // A resend stores nothing new and is announced nowhere.
    work.push(post(a, "a0", "a-0"));
    await Promise.all(work);
    const want = await stored(a);
    expect(want).toHaveLength(44);
    expect((await sa.settle(want.length)).map((e) => e.id)).toEqual(want.map((m) => m.id));
    expect(sa.events.map((e) => e.text)).toEqual(want.map((m) => m.text));
    const wantB = await stored(b);
    expect((await sb.settle(wantB.length)).map((e) => e.id)).toEqual(wantB.map((m) => m.id));
    sa.close();
    sb.close();
  });

  it("sends a message too long to ride in a notification, from the store, between the ones around it, and the ones read with it once", async () => {
    const s = await open();
    const st = await listen(s);
    await new Promise((r) => setTimeout(r, 100));
    const db = await getDb();
    const place = await siteChatPlace(db, siteId);
    const [session] = await db.select().from(webChatSessions).where(eq(webChatSessions.chatId, s.conversationKey.chatId));
    // 2,000 control characters: 12,000 bytes of JSON escapes, past PostgreSQL's 8,000-byte payload.
    const long = "\u0001".repeat(2000);
    // Same tick: the first goes alone, the other three are one batch, so one commit announces the
    // long one (read the store: it finds the two after it too) and then the two themselves.
    const texts = ["antes", long, "depois 1", "depois 2"];
    await Promise.all(texts.map((text, i) => intakeVisitorMessage(db, place, session, { text, clientMessageId: `${i}` })));
    await reply(s, "resposta");
    const want = await stored(s);
    expect(want.map((m) => m.text)).toEqual([...texts, "resposta"]);
    expect((await st.settle(5)).map((e) => e.id)).toEqual(want.map((m) => m.id));
    st.close();
  });

  it("opened from a Last-Event-ID while messages keep coming: each message after it once, in order", async () => {
    const s = await open();
    const first = await post(s, "m0", "0");
    const traffic = (async () => {
      for (let i = 1; i <= 30; i++) await Promise.all([post(s, `m${i}`, `${i}`), i % 7 === 0 ? reply(s, `r${i}`) : null]);
    })();
    // Opens while the traffic runs: its first read and the announcements overlap.
    await new Promise((r) => setTimeout(r, 30));
    const st = await listen(s, first);
    await traffic;
    const want = (await stored(s)).slice(1);
    expect((await st.settle(want.length)).map((e) => e.id)).toEqual(want.map((m) => m.id));
    st.close();
  });
});
