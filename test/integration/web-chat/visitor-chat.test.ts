/**
 * The visitor's side of web chat (sessions, messages, stream) and the member's side through the
 * existing messaging API: 401s, idempotency, rate limits, tenant isolation, a reply reaching the
 * open stream, and a lead (contact, deal) made from a visitor's contact left with consent.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as listRoute from "../../../app/api/v1/messaging/conversations/route";
import * as detailRoute from "../../../app/api/v1/messaging/conversations/detail/route";
import * as replyRoute from "../../../app/api/v1/messaging/reply/route";
import * as sendRoute from "../../../app/api/v1/messaging/send/route";
import * as marketingRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as optOutsRoute from "../../../app/api/v1/settings/messaging/opt-outs/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import * as shareLinksRoute from "../../../app/api/v1/share-links/route";
import * as messagesRoute from "../../../app/api/sites/[siteId]/chat/messages/route";
import * as sessionsRoute from "../../../app/api/sites/[siteId]/chat/sessions/route";
import * as streamRoute from "../../../app/api/sites/[siteId]/chat/stream/route";
import * as shareMessagesRoute from "../../../app/api/sites/share/[token]/chat/messages/route";
import * as shareSessionsRoute from "../../../app/api/sites/share/[token]/chat/sessions/route";
import { getDb } from "../../../db/client";
import { contacts, events, inboundLeads, messagingMessages, webChatSessions } from "../../../db/schema";
import { settleAfterCommit } from "../../../db/transaction";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { processLead } from "../../../lib/leads/inbound/process-lead";
import { makeTenant, propertyBody, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";
import { takeSseEvents } from "../../helpers/sse";

let t: TestTenant;
let other: TestTenant;
let channelId: string;
let siteId: string;
let otherSiteId: string;
let ip = 0;
/** Each call from its own address, so the per-address limits only bite where a test means them to. */
const from = () => ({ [CLIENT_ADDRESS_HEADER]: `10.7.${Math.floor(++ip / 250)}.${ip % 250}` });

const webChat = async (tenant: TestTenant) => {
  const res = await call(channelsRoute.POST, "POST", "/x", { key: tenant.key, body: { name: "Chat do site", transport: "web_chat" } });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const open = (site: string, body: Record<string, unknown> = {}, headers = from()) =>
  call(sessionsRoute.POST, "POST", `/api/sites/${site}/chat/sessions`, { params: { siteId: site }, body, headers });
const post = (site: string, token: string | null, body: Record<string, unknown>, headers: Record<string, string> = from()) =>
  call(messagesRoute.POST, "POST", `/api/sites/${site}/chat/messages`, {
    params: { siteId: site },
    body,
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
const list = (site: string, token: string, query: Record<string, string> = {}) =>
  call(messagesRoute.GET, "GET", `/api/sites/${site}/chat/messages`, {
    params: { siteId: site },
    query,
    headers: { ...from(), authorization: `Bearer ${token}` },
  });

beforeAll(async () => {
  t = await makeTenant();
  other = await makeTenant();
  channelId = await webChat(t);
  siteId = (await makeSite(t, { chat: { channelId, greeting: "Olá!" } })).id;
  otherSiteId = (await makeSite(other, { chat: { channelId: await webChat(other) } })).id;
  await call(marketingRoute.POST, "POST", "/x", { key: t.key, body: { name: "Site", kind: "website" } });
});

describe("sessions", () => {
  it("opens a conversation listed for the channel's members as 'Visitante', with the page and listing it started on", async () => {
    const res = await open(siteId, { pageUrl: "https://x.localhost/imovel/AP1", locale: "pt-BR" });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.body.sessionToken).toMatch(/^wcs_/);
    expect(res.body.conversationKey).toEqual({ channelId, chatId: expect.stringMatching(/@webchat$/) });
    // Only the token's hash is kept.
    const rows = await (await getDb()).select().from(webChatSessions).where(eq(webChatSessions.chatId, res.body.conversationKey.chatId));
    expect(rows[0].tokenHash).not.toContain(res.body.sessionToken);
    expect(JSON.stringify(rows[0])).not.toContain(res.body.sessionToken.slice(4));
    const items = (await call(listRoute.GET, "GET", "/x", { key: t.key, query: { channelId } })).body.conversations;
    const conv = items.find((c: { key: { chatId: string } }) => c.key.chatId === res.body.conversationKey.chatId);
    expect(conv).toMatchObject({ channel: { transport: "web_chat", connectionState: "connected" }, participant: { displayName: "Visitante" } });
    const detail = await call(detailRoute.GET, "GET", "/x", { key: t.key, query: res.body.conversationKey });
    expect(detail.body.origin).toMatchObject({ pageUrl: "https://x.localhost/imovel/AP1", listingId: null, siteId, shareLinkId: null });
  });

  it("refuses bad bodies (400), sites without a chat or unknown (404)", async () => {
    expect((await open(siteId, { email: "nope" })).status).toBe(400);
    expect((await open(siteId, { phone: "12" })).status).toBe(400);
    expect((await open(siteId, { listingId: crypto.randomUUID() })).status).toBe(400);
    expect((await open(siteId, { extra: 1 })).status).toBe(400);
    const bare = (await makeSite(t)).id;
    const none = await open(bare);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe("chat_not_available");
    expect((await open(crypto.randomUUID())).status).toBe(404);
  });

  it("limits sessions per client address (429)", async () => {
    const same = from();
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await open(siteId, {}, same)).status);
    expect(answers.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(answers[10]).toBe(429);
  });
});

describe("messages", () => {
  it("stores the visitor's message before the 201, once per clientMessageId", async () => {
    const s = (await open(siteId, { name: "Joana" })).body;
    const first = await post(siteId, s.sessionToken, { text: "Oi, o apartamento ainda está disponível?", clientMessageId: "c-1" });
    expect(first.status).toBe(201);
    expect(first.body.message).toMatchObject({ direction: "inbound", text: "Oi, o apartamento ainda está disponível?", clientMessageId: "c-1" });
    const again = await post(siteId, s.sessionToken, { text: "Oi, o apartamento ainda está disponível?", clientMessageId: "c-1" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.message.id).toBe(first.body.message.id);
    const reused = await post(siteId, s.sessionToken, { text: "outra coisa", clientMessageId: "c-1" });
    expect(reused.status).toBe(409);
    const db = await getDb();
    expect(await db.select().from(messagingMessages).where(eq(messagingMessages.chatId, s.conversationKey.chatId))).toHaveLength(1);
    const received = await db.select().from(events).where(eq(events.entityId, first.body.message.id));
    expect(received.map((e) => e.eventName)).toEqual(["channel.message.received"]);
    expect(received[0].data).toMatchObject({ channelType: "web_chat", direction: "inbound", textLength: "Oi, o apartamento ainda está disponível?".length });
    expect(JSON.stringify(received[0].data)).not.toContain("apartamento");
    const conv = (await call(listRoute.GET, "GET", "/x", { key: t.key, query: { channelId } })).body.conversations.find(
      (c: { key: { chatId: string } }) => c.key.chatId === s.conversationKey.chatId,
    );
    expect(conv).toMatchObject({ participant: { displayName: "Joana" }, readState: { unreadCount: 1, awaitingReply: true } });
  });

  it("refuses text that is empty, blank or over 2,000 characters, and a missing clientMessageId", async () => {
    const s = (await open(siteId)).body;
    for (const body of [
      { text: "", clientMessageId: "a" },
      { text: "   ", clientMessageId: "b" },
      { text: "x".repeat(2001), clientMessageId: "c" },
      { text: "oi" },
    ]) {
      expect((await post(siteId, s.sessionToken, body)).status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect((await post(siteId, s.sessionToken, { text: "x".repeat(2000), clientMessageId: "d" })).status).toBe(201);
  });

  it("answers 401 without a token, with a wrong one, another site's, or an expired one", async () => {
    const s = (await open(siteId)).body;
    const body = { text: "oi", clientMessageId: "x" };
    expect((await post(siteId, null, body)).status).toBe(401);
    expect((await post(siteId, `wcs_${"A".repeat(43)}`, body)).status).toBe(401);
    expect((await post(siteId, "garbage", body)).status).toBe(401);
    // Another tenant's site: its token opens nothing here, and ours nothing there.
    const foreign = (await open(otherSiteId)).body;
    expect((await post(siteId, foreign.sessionToken, body)).status).toBe(401);
    expect((await post(otherSiteId, s.sessionToken, body)).status).toBe(401);
    // Another site of the same tenant with the same channel.
    const sibling = (await makeSite(t, { chat: { channelId } })).id;
    expect((await post(sibling, s.sessionToken, body)).status).toBe(401);
    expect((await list(sibling, s.sessionToken)).status).toBe(401);
    await (await getDb())
      .update(webChatSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webChatSessions.chatId, s.conversationKey.chatId));
    const expired = await post(siteId, s.sessionToken, body);
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe("chat_session_invalid");
  });

  it("lists after a message id, and keeps the session 30 days after the last message", async () => {
    const s = (await open(siteId)).body;
    const ids = [];
    for (const n of [1, 2, 3]) ids.push((await post(siteId, s.sessionToken, { text: `m${n}`, clientMessageId: `k${n}` })).body.message.id);
    const all = await list(siteId, s.sessionToken);
    expect(all.body.messages.map((m: { text: string }) => m.text)).toEqual(["m1", "m2", "m3"]);
    expect(all.body.nextAfter).toBe(ids[2]);
    const after = await list(siteId, s.sessionToken, { after: ids[0] });
    expect(after.body.messages.map((m: { id: string }) => m.id)).toEqual(ids.slice(1));
    const none = await list(siteId, s.sessionToken, { after: ids[2] });
    expect(none.body).toEqual({ messages: [], nextAfter: ids[2] });
    expect((await list(siteId, s.sessionToken, { after: "x" })).status).toBe(400);
    const [row] = await (await getDb()).select().from(webChatSessions).where(eq(webChatSessions.chatId, s.conversationKey.chatId));
    const days = (row.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("limits messages per client address (429)", async () => {
    const s = (await open(siteId)).body;
    const same = from();
    const statuses = [];
    for (let i = 0; i < 31; i++) statuses.push((await post(siteId, s.sessionToken, { text: `r${i}`, clientMessageId: `r${i}` }, same)).status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(30);
    expect(statuses[30]).toBe(429);
  });
});

/** A reader of a stream's events: `until` reads until the events so far satisfy it or the time runs out. */
function eventReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  return {
    async until(done: (events: { id: string; data: any }[]) => boolean, ms = 3000) {
      const out: { id: string; data: any }[] = [];
      const deadline = Date.now() + ms;
      while (!done(out) && Date.now() < deadline) {
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), Math.max(0, deadline - Date.now())))]);
        if (!chunk || chunk.done) break;
        const taken = takeSseEvents(buf + decoder.decode(chunk.value, { stream: true }));
        buf = taken.rest;
        for (const { id, data } of taken.events) if (id) out.push({ id, data: JSON.parse(data) });
      }
      return out;
    },
    close: () => reader.cancel().catch(() => {}),
  };
}

describe("the member's side and the stream", () => {
  it("delivers a member's reply to the visitor's open stream within 2 s, and shows it in the history with its author", async () => {
    const s = (await open(siteId, { name: "Paulo" })).body;
    await post(siteId, s.sessionToken, { text: "Bom dia", clientMessageId: "p1" });
    const abort = new AbortController();
    const req = new Request(`http://localhost/api/sites/${siteId}/chat/stream`, {
      headers: { ...from(), authorization: `Bearer ${s.sessionToken}` },
      signal: abort.signal,
    });
    const res = await send(streamRoute.GET, req, { siteId });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    expect(res.headers.get("cache-control")).toContain("no-transform");
    const stream = eventReader(res);
    expect((await stream.until((e) => e.length >= 1)).map((e) => e.data.text)).toEqual(["Bom dia"]);
    const started = Date.now();
    const reply = await call(replyRoute.POST, "POST", "/x", {
      key: t.key,
      body: { ...s.conversationKey, body: { kind: "text", text: "Bom dia, Paulo! Está disponível sim." }, idempotencyKey: "reply-0001" },
    });
    expect(reply.body).toMatchObject({ status: "sent", reason: null });
    await settleAfterCommit();
    const live = await stream.until((e) => e.length >= 1, 2000);
    expect(live.map((e) => e.data)).toEqual([
      expect.objectContaining({ direction: "outbound", text: "Bom dia, Paulo! Está disponível sim.", clientMessageId: null }),
    ]);
    expect(Date.now() - started).toBeLessThan(2000);
    abort.abort();
    await stream.close();

    // The visitor's poll sees it too; the member's detail reads the service's own store.
    expect((await list(siteId, s.sessionToken)).body.messages.map((m: { direction: string }) => m.direction)).toEqual(["inbound", "outbound"]);
    const detail = await call(detailRoute.GET, "GET", "/x", { key: t.key, query: s.conversationKey });
    expect(detail.body.history).toMatchObject({ source: "service", unavailableReason: null });
    expect(detail.body.history.messages).toEqual([
      expect.objectContaining({ direction: "outbound", authorId: t.ownerId, text: "Bom dia, Paulo! Está disponível sim." }),
      expect.objectContaining({ direction: "inbound", authorName: "Paulo", text: "Bom dia" }),
    ]);
    expect(detail.body.conversation.readState).toMatchObject({ unreadCount: 0, awaitingReply: false });
    const sent = await (await getDb()).select().from(events).where(eq(events.entityId, reply.body.messageId));
    expect(sent.map((e) => e.eventName)).toEqual(["channel.message.sent"]);
  });

  it("resumes a stream after the Last-Event-ID it was given", async () => {
    const s = (await open(siteId)).body;
    const first = (await post(siteId, s.sessionToken, { text: "um", clientMessageId: "1" })).body.message.id;
    await post(siteId, s.sessionToken, { text: "dois", clientMessageId: "2" });
    const abort = new AbortController();
    const res = await send(
      streamRoute.GET,
      new Request(`http://localhost/api/sites/${siteId}/chat/stream`, {
        headers: { ...from(), authorization: `Bearer ${s.sessionToken}`, "last-event-id": first },
        signal: abort.signal,
      }),
      { siteId },
    );
    const stream = eventReader(res);
    expect((await stream.until((e) => e.length >= 1)).map((e) => e.data.text)).toEqual(["dois"]);
    abort.abort();
    await stream.close();
    const denied = await send(streamRoute.GET, new Request(`http://localhost/api/sites/${siteId}/chat/stream`, { headers: from() }), { siteId });
    expect(denied.status).toBe(401);
  });

  it("refuses a proactive send to a chat id no visitor opened, and honours the opt-out list", async () => {
    const sendRes = await call(sendRoute.POST, "POST", "/x", {
      key: t.key,
      body: { channelId, chatId: "5511987654321@c.us", text: "oi", idempotencyKey: "send-000001" },
    });
    expect(sendRes.body).toMatchObject({ status: "rejected", reason: "not_found_or_inaccessible" });
    const s = (await open(siteId, { phone: "+55 11 91234-5678" })).body;
    await call(optOutsRoute.POST, "POST", "/x", { key: t.key, body: { phone: "+5511912345678" } });
    const reply = await call(replyRoute.POST, "POST", "/x", { key: t.key, body: { ...s.conversationKey, body: { kind: "text", text: "oi" } } });
    expect(reply.body).toMatchObject({ status: "blocked", reason: "opt_out" });
  });

  it("keeps tenants apart: another tenant's key sees none of the conversation", async () => {
    const s = (await open(siteId)).body;
    await post(siteId, s.sessionToken, { text: "privado", clientMessageId: "iso" });
    const detail = await call(detailRoute.GET, "GET", "/x", { key: other.key, query: s.conversationKey });
    expect(detail.body).toMatchObject({ conversation: null, rejection: "not_found_or_inaccessible", history: null, origin: null });
    const reply = await call(replyRoute.POST, "POST", "/x", { key: other.key, body: { ...s.conversationKey, body: { kind: "text", text: "x" } } });
    expect(reply.body.status).toBe("forbidden");
    const items = (await call(listRoute.GET, "GET", "/x", { key: other.key })).body.conversations;
    expect(items.some((c: { key: { chatId: string } }) => c.key.chatId === s.conversationKey.chatId)).toBe(false);
  });
});

describe("leads", () => {
  it("makes a visitor who leaves a contact with consent a lead of the site's channel, and links the conversation to its deal", async () => {
    const prop = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody() });
    const listingId = prop.body.listings[0].id;
    const s = (await open(siteId, { name: "Carla", email: "carla@example.com", phone: "11 99876-5432", consent: true, listingId, pageUrl: "/imovel/x" })).body;
    const db = await getDb();
    const [session] = await db.select().from(webChatSessions).where(eq(webChatSessions.chatId, s.conversationKey.chatId));
    expect(session.inboundLeadId).toBeTruthy();
    const [lead] = await db.select().from(inboundLeads).where(eq(inboundLeads.id, session.inboundLeadId!));
    expect(lead.lead).toMatchObject({ contactName: "Carla", contactEmail: "carla@example.com", contactPhone: "+5511998765432", source: "web_chat" });
    const done = await processLead(db, lead.id);
    expect(done.status).toBe("processed");
    const dealId = done.lead!.dealIds[0];
    const detail = await call(detailRoute.GET, "GET", "/x", { key: t.key, query: s.conversationKey });
    expect(detail.body.conversation.links.primaryDealId).toBe(dealId);
    const [contact] = await db.select().from(contacts).where(eq(contacts.id, detail.body.conversation.links.customerId));
    expect(contact).toMatchObject({ name: "Carla", email: "carla@example.com" });
    expect(detail.body.origin.listingId).toBe(listingId);
    const created = await db.select().from(events).where(eq(events.entityId, dealId));
    expect(created.map((e) => e.eventName)).toContain("deal.created");
  });

  it("makes no lead without consent, or without a way to reach the visitor", async () => {
    const db = await getDb();
    for (const body of [{ email: "semconsent@example.com" }, { name: "Só nome", consent: true }]) {
      const s = (await open(siteId, body)).body;
      const [session] = await db.select().from(webChatSessions).where(eq(webChatSessions.chatId, s.conversationKey.chatId));
      expect(session.inboundLeadId).toBeNull();
    }
  });
});

describe("share pages", () => {
  it("open a chat on a tenant's share link when share pages carry one, linked to the link's listing", async () => {
    const prop = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody() });
    const listingId = prop.body.listings[0].id;
    const link = await call(shareLinksRoute.POST, "POST", "/x", { key: t.key, body: { entityType: "listing", entityId: listingId } });
    expect(link.status).toBe(201);
    const token = link.body.token;
    const openShare = () => call(shareSessionsRoute.POST, "POST", `/api/sites/share/${token}/chat/sessions`, { params: { token }, body: {}, headers: from() });
    expect((await openShare()).body.error.code).toBe("chat_not_available");
    await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { sharingConfig: { chatChannelId: channelId } } });
    const s = await openShare();
    expect(s.status).toBe(201);
    const msg = await call(shareMessagesRoute.POST, "POST", "/x", {
      params: { token },
      body: { text: "Olá", clientMessageId: "s1" },
      headers: { ...from(), authorization: `Bearer ${s.body.sessionToken}` },
    });
    expect(msg.status).toBe(201);
    // A share session is not a site session, and the reverse.
    expect((await post(siteId, s.body.sessionToken, { text: "x", clientMessageId: "s2" })).status).toBe(401);
    const detail = await call(detailRoute.GET, "GET", "/x", { key: t.key, query: s.body.conversationKey });
    expect(detail.body.origin).toMatchObject({ listingId, siteId: null, shareLinkId: link.body.id });
    const missing = await call(shareSessionsRoute.POST, "POST", "/x", { params: { token: "A".repeat(32) }, body: {}, headers: from() });
    expect(missing.status).toBe(404);
  });
});
