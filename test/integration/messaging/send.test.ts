/**
 * POST /api/v1/messaging/reply and /send: the ack with its policy, the gates in order
 * (channel_access_grant, chat_privacy_mode, outreach_safety, send_idempotency), listing cards with
 * public links, templates only where supported, idempotency keys (resends and two at once),
 * `authorId` on the sent message and one `channel.message.sent`, a gateway that hangs or fails.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as detailRoute from "../../../app/api/v1/messaging/conversations/detail/route";
import * as replyRoute from "../../../app/api/v1/messaging/reply/route";
import * as sendRoute from "../../../app/api/v1/messaging/send/route";
import * as optOutsRoute from "../../../app/api/v1/settings/messaging/opt-outs/route";
import { getDb } from "../../../db/client";
import { events, messagingConversations, messagingSendKeys, messagingSentMessages, messagingTemplates } from "../../../db/schema";
import { resetConfigForTests } from "../../../lib/config";
import { startFakeCloud, type FakeCloud } from "../../fakes/cloud-gateway";
import type { FakeWaha } from "../../fakes/waha-gateway";
import { makeMember, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import {
  makeCloudChannel,
  makeWahaChannel,
  messagingCast,
  postWebhook,
  processNow,
  receive,
  setPrivacy,
  type TestChannel,
  type TestMember,
} from "../../helpers/messaging";
import { makeListing } from "../../helpers/share";

let gw: FakeWaha;
let cloud: FakeCloud;
let t: TestTenant;
let other: TestTenant;
let ana: TestMember;
let bruno: TestMember;
let ch: TestChannel;
let priv: TestChannel;
let cloudCh: { id: string };
const chat = "5511987654321@c.us";

const reply = (key: string, body: unknown, headers?: Record<string, string>) =>
  call(replyRoute.POST, "POST", "/api/v1/messaging/reply", { key, body, headers });
const send = (key: string, body: unknown) => call(sendRoute.POST, "POST", "/api/v1/messaging/send", { key, body });
const text = (s: string) => ({ kind: "text", text: s });
const sentEvents = async (messageId: string) =>
  await (await getDb())
    .select()
    .from(events)
    .where(and(eq(events.entityId, messageId), eq(events.eventName, "channel.message.sent")));

beforeAll(async () => {
  ({ gw, t, other, ana, bruno } = await messagingCast());
  cloud = await startFakeCloud();
  ch = await makeWahaChannel(t, gw, { ownerId: ana.userId });
  priv = await makeWahaChannel(t, gw, { ownerId: ana.userId, privacyMode: "whitelist", name: "WhatsApp privado" });
  await receive(gw, ch, chat, "Olá, o apartamento ainda está disponível?", { pushName: "Carla" });
  cloudCh = await makeCloudChannel(t, cloud, { ownerId: ana.userId });
}, 60_000);
afterAll(async () => {
  await gw.close();
  await cloud.close();
});
afterEach(() => {
  gw.state.switches = { delayMs: 0, hang: false, failStatus: 0, emptyHistory: false, failTimes: 0 };
  cloud.state.switches = { delayMs: 0, hang: false, failStatus: 0, phoneStatus: "CONNECTED" };
  vi.unstubAllEnvs();
  resetConfigForTests();
});

describe("reply", () => {
  it("sends through the gateway, answers the ack, records authorId and emits one channel.message.sent", async () => {
    const res = await reply(ana.key, { channelId: ch.id, chatId: chat, body: text("Sim! Posso te mostrar amanhã.") }, { "x-api-key": ana.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      policy: {
        principal: "tenant_member",
        tenantScoped: true,
        mutates: true,
        riskTier: "reply",
        approval: "never",
        idempotencyKeyed: false,
        enforcedGates: ["channel_access_grant", "chat_privacy_mode", "outreach_safety"],
      },
      status: "sent",
      messageId: expect.any(String),
      handle: "+55 •••••••4321",
      reason: null,
      idempotent: false,
    });
    expect(gw.state.sent.at(-1)).toEqual({ chatId: chat, text: "Sim! Posso te mostrar amanhã." });
    const db = await getDb();
    const [sent] = await db.select().from(messagingSentMessages).where(eq(messagingSentMessages.providerMessageId, res.body.messageId));
    expect(sent).toMatchObject({ authorId: ana.userId, chatId: chat, tenantId: t.tenantId });
    const [c] = await db
      .select()
      .from(messagingConversations)
      .where(and(eq(messagingConversations.channelId, ch.id), eq(messagingConversations.chatId, chat)));
    expect(c).toMatchObject({ lastFromMe: true, awaitingReply: false, unreadCount: 0, lastPreview: "Sim! Posso te mostrar amanhã." });
    const evs = await sentEvents(res.body.messageId);
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({ entityType: "channel_message", userId: null });
    expect(Object.keys(evs[0].data as object).sort()).toEqual(
      ["channelId", "channelType", "chatId", "direction", "hasMedia", "messageId", "messageType", "mediaType", "sessionName", "textLength", "timestamp"].sort(),
    );
    expect(evs[0].data).toMatchObject({ direction: "outbound", textLength: 29, messageType: "text", chatId: chat, channelId: ch.id });

    // The gateway echoes our message as message.any: still one event, and the detail names the author.
    const echo = gw.webhook(ch.secret, "message.any", {
      id: res.body.messageId,
      timestamp: Math.floor(Date.now() / 1000),
      fromMe: true,
      from: "5511900000000@c.us",
      to: chat,
      body: "Sim! Posso te mostrar amanhã.",
    });
    expect((await postWebhook(ch.token, echo)).status).toBe(200);
    await processNow();
    expect(await sentEvents(res.body.messageId)).toHaveLength(1);
    const d = await call(detailRoute.GET, "GET", "/x", { key: ana.key, query: { channelId: ch.id, chatId: chat } });
    const m = d.body.history.messages.find((x: any) => x.id === res.body.messageId);
    expect(m).toMatchObject({ direction: "outbound", authorId: ana.userId, authorName: "Corretor broker" });
  });

  it("renders listing cards as one message per listing with its public link", async () => {
    const a = await makeListing(t, { title: "Casa com quintal", price: "750000.00" });
    const b = await makeListing(t, { title: "Studio no centro", price: "320000.00", priceVisibility: "private" });
    const before = gw.state.sent.length;
    const res = await reply(ana.key, { channelId: ch.id, chatId: chat, body: { kind: "listing_cards", listingIds: [a.id, b.id] } });
    expect(res.body).toMatchObject({ status: "sent", reason: null });
    const msgs = gw.state.sent.slice(before);
    expect(msgs).toHaveLength(2);
    expect(msgs[0].text).toMatch(/^Casa com quintal\nR\$\s?750\.000,00\nhttps?:\/\/\S+\/p\/[A-Za-z0-9_-]{32}$/);
    expect(msgs[1].text).toMatch(/^Studio no centro\nhttps?:\/\/\S+\/p\/[A-Za-z0-9_-]{32}$/);
    expect(msgs[1].text).not.toMatch(/\b320\b/); // the private price, not digits of the link's random token
    // A listing of another tenant is not found; nothing is sent.
    const foreign = await makeListing(other);
    const n = gw.state.sent.length;
    const bad = await reply(ana.key, { channelId: ch.id, chatId: chat, body: { kind: "listing_cards", listingIds: [a.id, foreign.id] } });
    expect(bad.body).toMatchObject({ status: "rejected", reason: "listing_not_found", messageId: null });
    expect(gw.state.sent.length).toBe(n);
  });

  it("refuses bad bodies with a 400 naming the field, sending nothing", async () => {
    const n = gw.state.sent.length;
    for (const body of [
      {},
      { channelId: ch.id, chatId: chat },
      { channelId: ch.id, chatId: chat, body: { kind: "text", text: "" } },
      { channelId: ch.id, chatId: chat, body: { kind: "text", text: "x".repeat(4097) } },
      { channelId: ch.id, chatId: chat, body: { kind: "listing_cards", listingIds: [] } },
      { channelId: ch.id, chatId: chat, body: { kind: "listing_cards", listingIds: Array.from({ length: 11 }, () => crypto.randomUUID()) } },
      { channelId: ch.id, chatId: chat, body: text("oi"), idempotencyKey: "short" },
      { channelId: ch.id, chatId: chat, body: text("oi"), idempotencyKey: "k".repeat(201) },
      { channelId: "not-a-uuid", chatId: chat, body: text("oi") },
      { channelId: ch.id, chatId: "x".repeat(10_000), body: text("oi") },
      { channelId: ch.id, chatId: chat, body: text("oi"), extra: 1 },
    ]) {
      const res = await reply(ana.key, body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    expect((await reply("", { channelId: ch.id, chatId: chat, body: text("oi") })).status).toBe(401);
    expect(gw.state.sent.length).toBe(n);
  });
});

describe("gates, in order", () => {
  it("channel_access_grant: another broker, another tenant, an unknown channel are forbidden without a word about the chat", async () => {
    const n = gw.state.sent.length;
    const r1 = await reply(bruno.key, { channelId: ch.id, chatId: chat, body: text("oi") });
    expect(r1.body).toMatchObject({ status: "forbidden", reason: "channel_forbidden", handle: null, messageId: null });
    const r2 = await reply(other.key, { channelId: ch.id, chatId: chat, body: text("oi") });
    expect(r2.body).toMatchObject({ status: "forbidden", reason: "not_found_or_inaccessible", handle: null });
    const r3 = await send(t.key, { channelId: crypto.randomUUID(), chatId: chat, text: "oi", idempotencyKey: "key-unknown-channel" });
    expect(r3.body).toMatchObject({ status: "forbidden", reason: "not_found_or_inaccessible" });
    // The tenant's owner has no grant either: role does not widen access.
    const r4 = await reply(t.key, { channelId: ch.id, chatId: chat, body: text("oi") });
    expect(r4.body).toMatchObject({ status: "forbidden", reason: "channel_forbidden" });
    expect(gw.state.sent.length).toBe(n);
  });

  it("chat_privacy_mode: pending is privacy_pending_approval, hidden or unknown is privacy_denied, whitelisted sends", async () => {
    const pending = "5511911112222@c.us";
    const hidden = "5511911113333@c.us";
    const white = "5511911114444@c.us";
    for (const c of [pending, hidden, white]) await receive(gw, priv, c, "oi");
    await setPrivacy(t, priv.id, pending, "pending");
    await setPrivacy(t, priv.id, hidden, "hidden");
    await setPrivacy(t, priv.id, white, "whitelisted");
    const n = gw.state.sent.length;
    expect((await reply(ana.key, { channelId: priv.id, chatId: pending, body: text("oi") })).body).toMatchObject({
      status: "blocked",
      reason: "privacy_pending_approval",
    });
    expect((await reply(ana.key, { channelId: priv.id, chatId: hidden, body: text("oi") })).body).toMatchObject({
      status: "blocked",
      reason: "privacy_denied",
      handle: null,
    });
    expect((await send(ana.key, { channelId: priv.id, chatId: "5511911115555@c.us", text: "oi", idempotencyKey: "unknown-on-whitelist" })).body).toMatchObject({
      status: "blocked",
      reason: "privacy_denied",
    });
    expect(gw.state.sent.length).toBe(n);
    expect((await reply(ana.key, { channelId: priv.id, chatId: white, body: text("oi") })).body).toMatchObject({ status: "sent" });
    // On a channel without privacy, a chat marked hidden is denied too.
    await setPrivacy(t, ch.id, "5511911116666@c.us", "hidden");
    expect((await send(ana.key, { channelId: ch.id, chatId: "5511911116666@c.us", text: "oi", idempotencyKey: "blacklisted-chat" })).body).toMatchObject({
      status: "blocked",
      reason: "privacy_denied",
    });
  });

  it("outreach_safety: a phone on the opt-out list is blocked, on reply and on send", async () => {
    const c = "5511922223333@c.us";
    await receive(gw, ch, c, "oi");
    const add = await call(optOutsRoute.POST, "POST", "/x", { key: t.key, body: { phone: "(11) 92222-3333", reason: "pediu para sair" } });
    expect(add.status).toBe(201);
    const n = gw.state.sent.length;
    expect((await reply(ana.key, { channelId: ch.id, chatId: c, body: text("oi") })).body).toMatchObject({
      status: "blocked",
      reason: "opt_out",
      handle: "+55 •••••••3333",
    });
    expect((await send(ana.key, { channelId: ch.id, chatId: c, text: "oi", idempotencyKey: "opted-out-send" })).body).toMatchObject({
      status: "blocked",
      reason: "opt_out",
    });
    expect(gw.state.sent.length).toBe(n);
    // Privacy comes before outreach safety.
    await setPrivacy(t, ch.id, c, "hidden");
    expect((await reply(ana.key, { channelId: ch.id, chatId: c, body: text("oi") })).body).toMatchObject({ status: "blocked", reason: "privacy_denied" });
  });

  it("hostile chat ids name nothing and reach no gateway path", async () => {
    const n = gw.state.requests.length;
    for (const chatId of ["../", "../../api/sessions/default", "@", "@c.us", "5511987654321@c.us/../x", "%2e%2e%2f"]) {
      const r = await reply(ana.key, { channelId: ch.id, chatId, body: text("oi") });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: "rejected", reason: "not_found_or_inaccessible", handle: null });
      const s = await send(ana.key, { channelId: ch.id, chatId, text: "oi", idempotencyKey: `hostile-${chatId}` });
      expect(s.body).toMatchObject({ status: "rejected", reason: "not_found_or_inaccessible" });
    }
    expect(gw.state.requests.length).toBe(n);
    expect((await send(ana.key, { channelId: ch.id, chatId: "x".repeat(10_240), text: "oi", idempotencyKey: "hostile-long" })).status).toBe(400);
  });
});

describe("send", () => {
  it("opens a conversation with a new phone-form chat, links the deal-less conversation, and needs a key", async () => {
    const fresh = "5511933334444@c.us";
    const res = await send(ana.key, { channelId: ch.id, chatId: fresh, text: "Olá! Sou a Ana, da imobiliária.", idempotencyKey: "first-contact-0001" });
    expect(res.body).toMatchObject({
      policy: {
        riskTier: "proactive",
        idempotencyKeyed: true,
        enforcedGates: ["channel_access_grant", "chat_privacy_mode", "outreach_safety", "send_idempotency"],
        approval: "never",
        mutates: true,
      },
      status: "sent",
      handle: "+55 •••••••4444",
      idempotent: false,
    });
    const [c] = await (await getDb())
      .select()
      .from(messagingConversations)
      .where(and(eq(messagingConversations.channelId, ch.id), eq(messagingConversations.chatId, fresh)));
    expect(c).toMatchObject({ lastFromMe: true, awaitingReply: false, unreadCount: 0 });
    expect((await send(ana.key, { channelId: ch.id, chatId: fresh, text: "oi" })).status).toBe(400);
    expect(
      (await send(ana.key, { channelId: ch.id, chatId: fresh, text: "oi", templateId: crypto.randomUUID(), idempotencyKey: "both-fields-1" })).status,
    ).toBe(400);
    expect((await send(ana.key, { channelId: ch.id, chatId: fresh, idempotencyKey: "neither-field-1" })).status).toBe(400);
    expect((await send(ana.key, { channelId: ch.id, chatId: fresh, text: "oi", dealId: crypto.randomUUID(), idempotencyKey: "unknown-deal-1" })).status).toBe(
      400,
    );
  });

  it("a resend with the same key answers the first ack with idempotent true and sends nothing; another body is a 409", async () => {
    const body = { channelId: ch.id, chatId: chat, text: "Segue a proposta.", idempotencyKey: "proposal-2026-11-24" };
    const first = await send(ana.key, body);
    expect(first.body).toMatchObject({ status: "sent", idempotent: false });
    const n = gw.state.sent.length;
    const again = await send(ana.key, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, idempotent: true });
    expect(gw.state.sent.length).toBe(n);
    const reused = await send(ana.key, { ...body, text: "Outro texto" });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe("idempotency_key_reused");
    // The key is per tenant and API key: the same key from another API key is another send.
    const otherKey = await makeMember(t, "broker");
    await call((await import("../../../app/api/v1/settings/messaging-channels/[id]/grants/route")).PUT, "PUT", "/x", {
      key: t.key,
      params: { id: ch.id },
      body: { memberIds: [otherKey.userId] },
    });
    expect((await send(otherKey.key, body)).body).toMatchObject({ status: "sent", idempotent: false });
    expect(gw.state.sent.length).toBe(n + 1);
    await call((await import("../../../app/api/v1/settings/messaging-channels/[id]/grants/route")).PUT, "PUT", "/x", {
      key: t.key,
      params: { id: ch.id },
      body: { memberIds: [] },
    });
  });

  it("two requests with one key at once send once; both answer the same ack", async () => {
    gw.state.switches.delayMs = 300;
    const n = gw.state.sent.length;
    const body = { channelId: ch.id, chatId: chat, text: "Só uma vez, por favor.", idempotencyKey: "concurrent-key-0001" };
    const [a, b, c] = await Promise.all([
      send(ana.key, body),
      send(ana.key, body),
      reply(ana.key, { channelId: ch.id, chatId: chat, body: text("Só uma vez, por favor."), idempotencyKey: "concurrent-key-0002" }),
    ]);
    expect(gw.state.sent.length).toBe(n + 2);
    expect([a.body.idempotent, b.body.idempotent].sort()).toEqual([false, true]);
    expect(a.body.messageId).toBe(b.body.messageId);
    expect(c.body).toMatchObject({ status: "sent", policy: { riskTier: "reply", idempotencyKeyed: true } });
    const rows = await (await getDb()).select().from(messagingSendKeys).where(eq(messagingSendKeys.idempotencyKey, "concurrent-key-0001"));
    expect(rows).toHaveLength(1);
  });

  it("a key whose first request died mid-send is settled as an unknown outcome, not a 503 forever, and sends nothing", async () => {
    const body = { channelId: ch.id, chatId: chat, text: "Enviado antes da queda.", idempotencyKey: "crashed-send-0001" };
    expect((await send(ana.key, body)).body).toMatchObject({ status: "sent" });
    // As if the process died after the gateway call and before storing the ack, an hour ago.
    const db = await getDb();
    await db
      .update(messagingSendKeys)
      .set({ ack: null, createdAt: new Date(Date.now() - 3_600_000) })
      .where(eq(messagingSendKeys.idempotencyKey, "crashed-send-0001"));
    const n = gw.state.sent.length;
    const started = Date.now();
    const again = await send(ana.key, body);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: "rejected", reason: "channel_timeout", idempotent: true });
    expect(gw.state.sent.length).toBe(n);
    // Settled once: later resends answer the same ack.
    expect((await send(ana.key, body)).body).toEqual(again.body);
  });

  it("templates only on channels that support them", async () => {
    const db = await getDb();
    const [tpl] = await db
      .insert(messagingTemplates)
      .values({ tenantId: t.tenantId, channelId: cloudCh.id, name: "boas_vindas", language: "pt_BR" })
      .returning();
    const onWaha = await send(ana.key, { channelId: ch.id, chatId: chat, templateId: tpl.id, idempotencyKey: "template-on-waha" });
    expect(onWaha.body).toMatchObject({ status: "rejected", reason: "channel_send_unsupported" });
    const ok = await send(ana.key, { channelId: cloudCh.id, chatId: "5511944445555@c.us", templateId: tpl.id, idempotencyKey: "template-on-cloud" });
    expect(ok.body).toMatchObject({ status: "sent", reason: null });
    expect(cloud.state.sent.at(-1)).toEqual({ to: "5511944445555", type: "template", text: undefined, template: { name: "boas_vindas", language: "pt_BR" } });
    const unknown = await send(ana.key, {
      channelId: cloudCh.id,
      chatId: "5511944445555@c.us",
      templateId: crypto.randomUUID(),
      idempotencyKey: "template-unknown",
    });
    expect(unknown.body).toMatchObject({ status: "rejected", reason: "template_not_found" });
    const free = await send(ana.key, { channelId: cloudCh.id, chatId: "5511944445555@c.us", text: "Texto livre", idempotencyKey: "cloud-free-text" });
    expect(free.body).toMatchObject({ status: "sent" });
  });
});

describe("a gateway that fails", () => {
  it("hangs: the request answers within its budget with channel_timeout, and the key stays used", async () => {
    vi.stubEnv("MESSAGING_SEND_TIMEOUT_MS", "800");
    resetConfigForTests();
    gw.state.switches.hang = true;
    const body = { channelId: ch.id, chatId: chat, text: "Alô?", idempotencyKey: "hanging-gateway-1" };
    const t0 = Date.now();
    const res = await send(ana.key, body);
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(res.body).toMatchObject({ status: "rejected", reason: "channel_timeout", messageId: null });
    gw.state.switches.hang = false;
    expect((await send(ana.key, body)).body).toMatchObject({ status: "rejected", reason: "channel_timeout", idempotent: true });
  });

  it("refuses: channel_unreachable, and the key is freed so a resend may fire", async () => {
    gw.state.switches.failStatus = 500;
    const body = { channelId: ch.id, chatId: chat, text: "Tentando de novo", idempotencyKey: "failing-gateway-1" };
    expect((await send(ana.key, body)).body).toMatchObject({ status: "rejected", reason: "channel_unreachable" });
    gw.state.switches.failStatus = 0;
    expect((await send(ana.key, body)).body).toMatchObject({ status: "sent", idempotent: false });
  });
});
