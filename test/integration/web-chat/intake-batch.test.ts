/**
 * Visitor messages taken in batches (group commit, lib/messaging/web-chat/intake.ts): messages that
 * arrive together are stored in one tenant transaction, and each still gets its own answer: stored
 * before its 201, idempotent on clientMessageId inside a batch and across batches, a bad one failing
 * alone, one `channel.message.received` per message in the messages' order.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "../../../app/api/v1/messaging/conversations/route";
import * as replyRoute from "../../../app/api/v1/messaging/reply/route";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as messagesRoute from "../../../app/api/sites/[siteId]/chat/messages/route";
import * as sessionsRoute from "../../../app/api/sites/[siteId]/chat/sessions/route";
import { getDb } from "../../../db/client";
import { events, messagingChatPrivacy, messagingMessages, webChatSessions } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { intakeStats, intakeVisitorMessage } from "../../../lib/messaging/web-chat/intake";
import { siteChatPlace } from "../../../lib/messaging/web-chat/place";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let t: TestTenant;
let other: TestTenant;
let siteId: string;
let otherSiteId: string;
let ip = 0;
const from = () => ({ [CLIENT_ADDRESS_HEADER]: `10.9.${Math.floor(++ip / 250)}.${ip % 250}` });

const webChat = async (tenant: TestTenant) => {
  const res = await call(channelsRoute.POST, "POST", "/x", { key: tenant.key, body: { name: "Chat", transport: "web_chat" } });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const open = async (site: string, name?: string) => {
  const res = await call(sessionsRoute.POST, "POST", `/api/sites/${site}/chat/sessions`, {
    params: { siteId: site },
    body: name ? { name } : {},
    headers: from(),
  });
  expect(res.status).toBe(201);
  return res.body as { sessionToken: string; conversationKey: { channelId: string; chatId: string } };
};
const post = (site: string, token: string, body: Record<string, unknown>) =>
  call(messagesRoute.POST, "POST", `/api/sites/${site}/chat/messages`, {
    params: { siteId: site },
    body,
    headers: { ...from(), authorization: `Bearer ${token}` },
  });
const stored = async (chatId: string) =>
  (await getDb()).select().from(messagingMessages).where(eq(messagingMessages.chatId, chatId)).orderBy(asc(messagingMessages.seq));
const receivedEvents = async (ids: string[]) =>
  (await getDb())
    .select()
    .from(events)
    .where(and(inArray(events.entityId, ids), eq(events.eventName, "channel.message.received")))
    .orderBy(asc(events.seq));
const conversationOf = async (channelId: string, chatId: string) =>
  (await call(listRoute.GET, "GET", "/x", { key: t.key, query: { channelId } })).body.conversations.find(
    (c: { key: { chatId: string } }) => c.key.chatId === chatId,
  );

beforeAll(async () => {
  t = await makeTenant();
  other = await makeTenant();
  siteId = (await makeSite(t, { chat: { channelId: await webChat(t) } })).id;
  otherSiteId = (await makeSite(other, { chat: { channelId: await webChat(other) } })).id;
});

describe("visitor messages in batches", () => {
  it("stores concurrent posts of one chat once each, in one order for the store, the events and the conversation", async () => {
    const s = await open(siteId, "Ana");
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => post(siteId, s.sessionToken, { text: `msg ${i}`, clientMessageId: `one-${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    expect(answers.every((a) => a.headers.get("idempotent-replayed") === null)).toBe(true);
    const rows = await stored(s.conversationKey.chatId);
    expect(rows.map((r) => r.clientMessageId).sort()).toEqual(answers.map((_, i) => `one-${i}`).sort());
    // Each answer is its own stored row.
    for (const [i, a] of answers.entries()) expect(rows.find((r) => r.id === a.body.message.id)?.text).toBe(`msg ${i}`);
    // Events: one per message, in the messages' own order; distinct instants (the member's history pages on them).
    const evs = await receivedEvents(rows.map((r) => r.id));
    expect(evs.map((e) => e.entityId)).toEqual(rows.map((r) => r.id));
    expect(new Set(rows.map((r) => r.createdAt.getTime())).size).toBe(rows.length);
    const times = rows.map((r) => r.createdAt.getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const conv = await conversationOf(s.conversationKey.channelId, s.conversationKey.chatId);
    expect(conv).toMatchObject({ participant: { displayName: "Ana" }, readState: { unreadCount: 12, awaitingReply: true } });
    expect(conv.lastActivity).toMatchObject({ preview: rows.at(-1)!.text, fromMe: false, at: rows.at(-1)!.createdAt.toISOString() });
  });

  it("keeps concurrent posts of several chats apart: each conversation gets exactly its own", async () => {
    const chats = await Promise.all([0, 1, 2, 3].map((n) => open(siteId, `V${n}`)));
    const before = intakeStats();
    const answers = await Promise.all(
      chats.flatMap((s, c) => [0, 1, 2].map((i) => post(siteId, s.sessionToken, { text: `c${c} m${i}`, clientMessageId: `k-${i}` }))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    const after = intakeStats();
    expect(after.messages - before.messages).toBe(12);
    for (const [c, s] of chats.entries()) {
      const rows = await stored(s.conversationKey.chatId);
      expect(rows.map((r) => r.text).sort()).toEqual([`c${c} m0`, `c${c} m1`, `c${c} m2`]);
      expect((await receivedEvents(rows.map((r) => r.id))).map((e) => e.entityId)).toEqual(rows.map((r) => r.id));
      const conv = await conversationOf(s.conversationKey.channelId, s.conversationKey.chatId);
      expect(conv.readState.unreadCount).toBe(3);
      const [session] = await (await getDb()).select().from(webChatSessions).where(eq(webChatSessions.chatId, s.conversationKey.chatId));
      expect(session.expiresAt.getTime()).toBe(rows.at(-1)!.createdAt.getTime() + 30 * 86_400_000);
    }
  });

  it("writes a clientMessageId sent twice in one batch once: the second answers the first (201 replayed), another text is a 409", async () => {
    const s = await open(siteId);
    const db = await getDb();
    const place = await siteChatPlace(db, siteId);
    const [session] = await db.select().from(webChatSessions).where(eq(webChatSessions.chatId, s.conversationKey.chatId));
    const before = intakeStats();
    // Same tick: the first goes at once, the next four wait and are written as one batch.
    const results = await Promise.all([
      intakeVisitorMessage(db, place, session, { text: "primeira", clientMessageId: "lead" }),
      intakeVisitorMessage(db, place, session, { text: "oi", clientMessageId: "dup" }),
      intakeVisitorMessage(db, place, session, { text: "oi", clientMessageId: "dup" }),
      intakeVisitorMessage(db, place, session, { text: "outro", clientMessageId: "dup" }),
      intakeVisitorMessage(db, place, session, { text: "primeira", clientMessageId: "lead" }),
    ]);
    expect(intakeStats().batches - before.batches).toBe(2);
    expect(results.map((r) => r.replayed)).toEqual([false, false, true, true, true]);
    expect(results[2].row.id).toBe(results[1].row.id);
    expect(results[4].row.id).toBe(results[0].row.id);
    const rows = await stored(s.conversationKey.chatId);
    expect(rows.map((r) => r.clientMessageId)).toEqual(["lead", "dup"]);
    expect(await receivedEvents(rows.map((r) => r.id))).toHaveLength(2);

    // Through the route, concurrently: the same body twice is one message; another text under the id is a 409.
    const [a, b, c] = await Promise.all([
      post(siteId, s.sessionToken, { text: "tudo bem?", clientMessageId: "http-dup" }),
      post(siteId, s.sessionToken, { text: "tudo bem?", clientMessageId: "http-dup" }),
      post(siteId, s.sessionToken, { text: "diferente", clientMessageId: "http-dup" }),
    ]);
    // Concurrent requests have no order: whichever body is taken first is the message, and the other text is refused.
    const after = await stored(s.conversationKey.chatId);
    const kept = after.filter((r) => r.clientMessageId === "http-dup");
    expect(kept).toHaveLength(1);
    const winners = [a, b, c].filter((r) => r.status === 201);
    const losers = [a, b, c].filter((r) => r.status !== 201);
    if (kept[0].text === "tudo bem?") {
      expect([a.status, b.status, c.status]).toEqual([201, 201, 409]);
      expect([a.headers.get("idempotent-replayed"), b.headers.get("idempotent-replayed")].filter(Boolean)).toEqual(["true"]);
    } else expect([a.status, b.status, c.status]).toEqual([409, 409, 201]);
    for (const w of winners) expect(w.body.message).toMatchObject({ id: kept[0].id, text: kept[0].text });
    for (const l of losers) expect(l.body.error.code).toBe("client_message_id_reused");
    // Across batches: a later resend answers the stored message.
    const again = await post(siteId, s.sessionToken, { text: "oi", clientMessageId: "dup" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.message.id).toBe(results[1].row.id);
    const conv = await conversationOf(s.conversationKey.channelId, s.conversationKey.chatId);
    expect(conv.readState.unreadCount).toBe(3);
  });

  it("fails only the bad message of a batch: bad bodies and tokens get their own 4xx, a row the database refuses fails alone", async () => {
    const s = await open(siteId);
    const foreign = await open(otherSiteId);
    const answers = await Promise.all([
      post(siteId, s.sessionToken, { text: "boa", clientMessageId: "g1" }),
      post(siteId, s.sessionToken, { text: "", clientMessageId: "bad-empty" }),
      post(siteId, s.sessionToken, { text: "boa 2", clientMessageId: "g2" }),
      post(siteId, foreign.sessionToken, { text: "de outro", clientMessageId: "bad-token" }),
      post(siteId, s.sessionToken, { text: "sem id" }),
      post(siteId, s.sessionToken, { text: "boa 3", clientMessageId: "g3" }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([201, 400, 201, 401, 400, 201]);
    expect((await stored(s.conversationKey.chatId)).map((r) => r.clientMessageId).sort()).toEqual(["g1", "g2", "g3"]);
    expect(await stored(foreign.conversationKey.chatId)).toHaveLength(0);

    // A message the database refuses (its channel is gone: a foreign key) in the same batch as good ones.
    const db = await getDb();
    const place = await siteChatPlace(db, siteId);
    const [session] = await db.select().from(webChatSessions).where(eq(webChatSessions.chatId, s.conversationKey.chatId));
    const ghost = { ...place, channel: { ...place.channel, id: randomUUID() } };
    const before = intakeStats();
    const settled = await Promise.allSettled([
      intakeVisitorMessage(db, place, session, { text: "antes", clientMessageId: "h0" }),
      intakeVisitorMessage(db, place, session, { text: "boa 4", clientMessageId: "h1" }),
      intakeVisitorMessage(db, ghost, session, { text: "perdida", clientMessageId: "h2" }),
      intakeVisitorMessage(db, place, session, { text: "boa 5", clientMessageId: "h3" }),
    ]);
    expect(settled.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(intakeStats().messages - before.messages).toBe(3);
    const rows = await stored(s.conversationKey.chatId);
    expect(rows.map((r) => r.clientMessageId).sort()).toEqual(["g1", "g2", "g3", "h0", "h1", "h3"]);
    expect(rows.slice(3).map((r) => r.clientMessageId)).toEqual(["h0", "h1", "h3"]);
    expect(await receivedEvents(rows.map((r) => r.id))).toHaveLength(6);
  });

  it("keeps tenants apart: another tenant's batch writes nothing of this tenant's and its key sees none of them", async () => {
    const mine = await open(siteId);
    const theirs = await open(otherSiteId);
    const answers = await Promise.all([
      post(siteId, mine.sessionToken, { text: "meu", clientMessageId: "same" }),
      post(otherSiteId, theirs.sessionToken, { text: "deles", clientMessageId: "same" }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    expect((await stored(mine.conversationKey.chatId)).map((r) => [r.tenantId, r.text])).toEqual([[t.tenantId, "meu"]]);
    expect((await stored(theirs.conversationKey.chatId)).map((r) => [r.tenantId, r.text])).toEqual([[other.tenantId, "deles"]]);
    const seen = (await call(listRoute.GET, "GET", "/x", { key: other.key, query: {} })).body.conversations.map(
      (c: { key: { chatId: string } }) => c.key.chatId,
    );
    expect(seen).toContain(theirs.conversationKey.chatId);
    expect(seen).not.toContain(mine.conversationKey.chatId);
  });

  it("a member's reply is stored with its send record and event in one go: the conversation shows it last, answered", async () => {
    const s = await open(siteId, "Rui");
    await Promise.all([0, 1].map((i) => post(siteId, s.sessionToken, { text: `pergunta ${i}`, clientMessageId: `q${i}` })));
    const reply = await call(replyRoute.POST, "POST", "/x", { key: t.key, body: { ...s.conversationKey, body: { kind: "listing_cards", listingIds: [] } } });
    expect(reply.status).toBe(400);
    const ok = await call(replyRoute.POST, "POST", "/x", { key: t.key, body: { ...s.conversationKey, body: { kind: "text", text: "Olá, Rui!" } } });
    expect(ok.body).toMatchObject({ status: "sent", reason: null });
    const rows = await stored(s.conversationKey.chatId);
    expect(rows.map((r) => [r.direction, r.text])).toEqual([
      ["inbound", expect.stringMatching(/^pergunta/)],
      ["inbound", expect.stringMatching(/^pergunta/)],
      ["outbound", "Olá, Rui!"],
    ]);
    expect(ok.body.messageId).toBe(rows[2].id);
    const sent = await (await getDb()).select().from(events).where(eq(events.entityId, rows[2].id));
    expect(sent.map((e) => e.eventName)).toEqual(["channel.message.sent"]);
    const conv = await conversationOf(s.conversationKey.channelId, s.conversationKey.chatId);
    expect(conv.readState).toMatchObject({ unreadCount: 0, awaitingReply: false });
    expect(conv.lastActivity).toEqual({ preview: "Olá, Rui!", fromMe: true, at: rows[2].createdAt.toISOString() });
    const [session] = await (await getDb()).select().from(webChatSessions).where(eq(webChatSessions.chatId, s.conversationKey.chatId));
    expect(session.expiresAt.getTime()).toBe(rows[2].createdAt.getTime() + 30 * 86_400_000);
  });

  it("raises no event for a chat whose privacy is hidden, in a batch with an open one", async () => {
    const [hidden, open1] = [await open(siteId, "Oculto"), await open(siteId, "Aberto")];
    await (await getDb())
      .insert(messagingChatPrivacy)
      .values({ tenantId: t.tenantId, channelId: hidden.conversationKey.channelId, chatId: hidden.conversationKey.chatId, state: "hidden" });
    const answers = await Promise.all(
      [hidden, open1, hidden, open1].map((s, i) => post(siteId, s.sessionToken, { text: `p${i}`, clientMessageId: `priv-${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const hiddenRows = await stored(hidden.conversationKey.chatId);
    const openRows = await stored(open1.conversationKey.chatId);
    expect(hiddenRows).toHaveLength(2);
    expect(await receivedEvents(hiddenRows.map((r) => r.id))).toEqual([]);
    expect((await receivedEvents(openRows.map((r) => r.id))).map((e) => e.entityId)).toEqual(openRows.map((r) => r.id));
  });
});
