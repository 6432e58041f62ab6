/**
 * Instagram and Messenger channels through one Graph API adapter, against a fake Graph server on
 * 127.0.0.1: created and checked like Cloud channels, the `hub.challenge` subscription check,
 * `X-Hub-Signature-256` webhooks, DMs (and our echoes) into the same conversation list with their
 * transport and `channel.message.*` events, replies through the Send API with the same gates.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "../../../app/api/v1/messaging/conversations/route";
import * as detailRoute from "../../../app/api/v1/messaging/conversations/detail/route";
import * as replyRoute from "../../../app/api/v1/messaging/reply/route";
import * as sendRoute from "../../../app/api/v1/messaging/send/route";
import * as agentRoute from "../../../app/api/v1/agents/[id]/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as optOuts from "../../../app/api/v1/settings/messaging/opt-outs/route";
import * as channelRoute from "../../../app/api/v1/settings/messaging-channels/[id]/route";
import * as webhookRoute from "../../../app/api/webhooks/messaging/[channelToken]/route";
import { getDb } from "../../../db/client";
import { events, messagingConversations, messagingInboundEvents } from "../../../db/schema";
import { startFakeGraph, type FakeGraph } from "../../fakes/meta-graph";
import { startFakeModel } from "../../fakes/model-server";
import { startFakeWaha, type FakeWaha } from "../../fakes/waha-gateway";
import { createAgent, executionsOf, setAi } from "../../helpers/agents";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";
import { grant, makeMetaChannel, makeWahaChannel, postWebhook, processNow, setPrivacy, type TestChannel, type TestMember } from "../../helpers/messaging";

let ig: FakeGraph;
let fb: FakeGraph;
let t: TestTenant;
let other: TestTenant;
let ana: TestMember;
let igCh: TestChannel;
let fbCh: TestChannel;
let gw: FakeWaha;

beforeAll(async () => {
  ig = await startFakeGraph({ object: "instagram", accountId: "17841400000000001" });
  fb = await startFakeGraph({ object: "page", accountId: "104000000000001", token: "page-token-fb" });
  gw = await startFakeWaha();
  t = await makeTenant();
  other = await makeTenant();
  ana = await makeMember(t, "broker");
  igCh = await makeMetaChannel(t, ig, "instagram", { ownerId: ana.userId });
  fbCh = await makeMetaChannel(t, fb, "facebook_messenger", { ownerId: ana.userId });
});
afterAll(async () => {
  await ig.close();
  await fb.close();
  await gw.close();
});

const conv = async (channelId: string, chatId: string) =>
  (
    await (
      await getDb()
    )
      .select()
      .from(messagingConversations)
      .where(and(eq(messagingConversations.channelId, channelId), eq(messagingConversations.chatId, chatId)))
  )[0];
const eventsOf = async (messageId: string) => await (await getDb()).select().from(events).where(eq(events.entityId, messageId));
const reply = (channelId: string, chatId: string, text: string, key = ana.key) =>
  call(replyRoute.POST, "POST", "/x", { key, body: { channelId, chatId, body: { kind: "text", text } } });

describe("Instagram and Messenger channels", () => {
  it("are created with provider meta, checked against Graph (connected; a revoked token is expired), and other providers refuse these transports", async () => {
    for (const c of [igCh, fbCh]) {
      const res = await call(channelRoute.GET, "GET", "/x", { key: t.key, params: { id: c.id } });
      expect(res.body).toMatchObject({ provider: "meta", connectionState: "connected" });
    }
    const revoked = await makeMetaChannel(t, ig, "instagram", { apiKey: "revoked" });
    expect((await call(channelRoute.GET, "GET", "/x", { key: t.key, params: { id: revoked.id } })).body.connectionState).toBe("expired");
    await expect(makeMetaChannel(t, ig, "instagram", { provider: "waha" })).rejects.toThrow(/400/);
    await expect(makeMetaChannel(t, ig, "whatsapp" as never)).rejects.toThrow(/400/);
    // Meta signs with the app's secret: given at creation, it is the channel's HMAC secret.
    const appSecret = "0123456789abcdef0123456789abcdef";
    const withApp = await makeMetaChannel(t, ig, "instagram", { appSecret });
    expect(withApp.secret).toBe(appSecret);
    expect((await postWebhook(withApp.token, ig.inbound(appSecret, "7700000000000999", { text: "assinado pelo app" }))).status).toBe(200);
    await expect(makeMetaChannel(t, ig, "instagram", { provider: "waha", transport: "whatsapp", appSecret })).rejects.toThrow(/appSecret/);
  });

  it("answers the subscription check with the channel's secret only", async () => {
    const get = (token: string, verify: string) => {
      const url = `http://localhost/api/webhooks/messaging/${token}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(verify)}&hub.challenge=12345`;
      return send(webhookRoute.GET, new Request(url), { channelToken: token });
    };
    const ok = await get(igCh.token, igCh.secret);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("12345");
    expect((await get(igCh.token, "wrong")).status).toBe(401);
  });

  it("refuses a bad signature; a DM becomes a conversation with its transport and a received event; echoes are ours", async () => {
    const psid = "7700000000000101";
    const wh = ig.inbound(igCh.secret, psid, { text: "Oi! Vi o anúncio no Instagram" });
    expect((await postWebhook(igCh.token, { ...wh, headers: { ...wh.headers, "x-hub-signature-256": `sha256=${"0".repeat(64)}` } })).status).toBe(401);
    expect((await postWebhook(igCh.token, ig.inbound("wrong", psid, { text: "x" }))).status).toBe(401);

    const res = await postWebhook(igCh.token, wh);
    expect(res.status).toBe(200);
    const [stored] = await (await getDb()).select().from(messagingInboundEvents).where(eq(messagingInboundEvents.id, res.body.id));
    expect(stored).toMatchObject({ event: "meta.instagram", status: "received" });
    await processNow();
    expect(await conv(igCh.id, psid)).toMatchObject({
      lastPreview: "Oi! Vi o anúncio no Instagram",
      unreadCount: 1,
      awaitingReply: true,
      handleMasked: "•••0101",
    });
    const [e] = await eventsOf(wh.mid);
    expect(e).toMatchObject({ eventName: "channel.message.received" });
    expect(e.data).toMatchObject({ channelId: igCh.id, channelType: "instagram", chatId: psid, direction: "inbound", sessionName: ig.accountId });

    // A photo: a descriptor, never the CDN URL.
    const photo = ig.inbound(igCh.secret, psid, { attachments: [{ type: "image", payload: { url: "https://cdn.example/secret-signed-url.jpg" } }] });
    await postWebhook(igCh.token, photo);
    // Our reply sent from the Instagram app comes back as an echo: read and answered.
    const echo = ig.inbound(igCh.secret, psid, { text: "Olá! Posso ajudar?", echo: true });
    await postWebhook(igCh.token, echo);
    // A delivery receipt is stored and changes nothing.
    expect((await postWebhook(igCh.token, ig.delivery(igCh.secret, psid))).status).toBe(200);
    await processNow();
    expect(await conv(igCh.id, psid)).toMatchObject({ lastPreview: "Olá! Posso ajudar?", lastFromMe: true, unreadCount: 0, awaitingReply: false });
    const [pe] = await eventsOf(photo.mid);
    expect(pe.data).toMatchObject({ messageType: "image", hasMedia: true });
    expect(JSON.stringify(pe.data)).not.toContain("cdn.example");
    expect((await eventsOf(echo.mid))[0]).toMatchObject({ eventName: "channel.message.sent" });
  });

  it("Messenger DMs land in the same list; replies go through the Send API with the same gates; detail says Graph keeps no history", async () => {
    const psid = "2500000000000202";
    await postWebhook(fbCh.token, fb.inbound(fbCh.secret, psid, { text: "Ainda está disponível?" }));
    await processNow();
    const list = await call(listRoute.GET, "GET", "/x", { key: ana.key, query: { transports: ["instagram", "facebook_messenger"] } });
    const transports = list.body.conversations.map((c: any) => c.channel.transport);
    expect(transports).toContain("instagram");
    expect(transports).toContain("facebook_messenger");

    const res = await reply(fbCh.id, psid, "Sim! Quer agendar uma visita?");
    expect(res.body).toMatchObject({ status: "sent", reason: null });
    expect(fb.state.sent.at(-1)).toEqual({ recipient: psid, messagingType: "RESPONSE", text: "Sim! Quer agendar uma visita?" });
    const [sent] = await eventsOf(res.body.messageId);
    expect(sent).toMatchObject({ eventName: "channel.message.sent" });
    expect(sent.data).toMatchObject({ channelType: "facebook_messenger", direction: "outbound" });

    const d = await call(detailRoute.GET, "GET", "/x", { key: ana.key, query: { channelId: fbCh.id, chatId: psid } });
    expect(d.body.history).toMatchObject({ unavailableReason: "feed_not_supported_on_channel", messages: [] });

    // A person who never wrote to the page cannot be messaged first.
    const first = await call(sendRoute.POST, "POST", "/x", {
      key: ana.key,
      body: { channelId: fbCh.id, chatId: "9999000000000000", text: "Olá", idempotencyKey: "meta-first-1" },
    });
    expect(first.body).toMatchObject({ status: "rejected", reason: "not_found_or_inaccessible" });
    // A hidden chat is refused by the privacy gate; Graph refusing is an ack, not an error.
    await setPrivacy(t, fbCh.id, psid, "hidden");
    expect((await reply(fbCh.id, psid, "x")).body).toMatchObject({ status: "blocked", reason: "privacy_denied" });
    await setPrivacy(t, fbCh.id, psid, "whitelisted");
    fb.state.switches.failStatus = 400;
    try {
      expect((await reply(fbCh.id, psid, "x")).body).toMatchObject({ status: "rejected", reason: "channel_unreachable" });
    } finally {
      fb.state.switches.failStatus = 0;
    }
  });

  it("a chat on the opt-out list is blocked like an opted-out WhatsApp number, until it is removed", async () => {
    const psid = "7700000000000303";
    await postWebhook(igCh.token, ig.inbound(igCh.secret, psid, { text: "Quero saber do apartamento" }));
    await processNow();
    const add = await call(optOuts.POST, "POST", "/x", { key: t.key, body: { channelId: igCh.id, chatId: psid, reason: "pediu no direct" } });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ phone: null, email: null, channelId: igCh.id, chatId: psid, reason: "pediu no direct" });
    const before = ig.state.sent.length;
    expect((await reply(igCh.id, psid, "Oi")).body).toMatchObject({ status: "blocked", reason: "opt_out", handle: "•••0303", messageId: null });
    expect(ig.state.sent.length).toBe(before);
    // The same page-scoped id on the other page's channel is another person.
    await postWebhook(fbCh.token, fb.inbound(fbCh.secret, psid, { text: "Oi" }));
    await processNow();
    expect((await reply(fbCh.id, psid, "Olá")).body).toMatchObject({ status: "sent" });

    // Bad entries are 400s naming what is wrong, and store nothing.
    const whatsApp = await makeWahaChannel(t, gw);
    for (const body of [
      { channelId: igCh.id },
      { chatId: psid },
      { channelId: igCh.id, chatId: psid, phone: "+5511987654321" },
      { channelId: igCh.id, chatId: "abc@c.us" },
      { channelId: whatsApp.id, chatId: psid },
      { channelId: crypto.randomUUID(), chatId: psid },
    ]) {
      const res = await call(optOuts.POST, "POST", "/x", { key: t.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    // Another tenant cannot name our channel.
    expect((await call(optOuts.POST, "POST", "/x", { key: other.key, body: { channelId: igCh.id, chatId: psid } })).status).toBe(400);
    const list = await call(optOuts.GET, "GET", "/x", { key: t.key });
    expect(list.body.items.filter((i: any) => i.chatId !== null)).toEqual([expect.objectContaining({ channelId: igCh.id, chatId: psid })]);
    expect((await call(optOuts.GET, "GET", "/x", { key: other.key })).body.items).toEqual([]);

    expect((await call(optOuts.DELETE, "DELETE", "/x", { key: t.key, query: { channelId: igCh.id, chatId: psid } })).status).toBe(204);
    expect((await call(optOuts.DELETE, "DELETE", "/x", { key: t.key, query: { channelId: igCh.id, chatId: psid } })).status).toBe(404);
    expect((await reply(igCh.id, psid, "Oi")).body).toMatchObject({ status: "sent" });
  });

  it("a chat linked to a deal whose contact opted out by phone or e-mail is blocked", async () => {
    const psid = "2500000000000404";
    await postWebhook(fbCh.token, fb.inbound(fbCh.secret, psid, { text: "Bom dia" }));
    await processNow();
    const deal = await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: {
        title: "Compra via Messenger",
        dealType: "sale",
        contacts: [{ name: "Rui Prado", phone: "+5511955554444", email: "Rui@Example.com", role: "buyer" }],
      },
    });
    expect(deal.status).toBe(201);
    await (await getDb())
      .update(messagingConversations)
      .set({ primaryDealId: deal.body.id })
      .where(and(eq(messagingConversations.channelId, fbCh.id), eq(messagingConversations.chatId, psid)));
    expect((await reply(fbCh.id, psid, "Olá, Rui")).body).toMatchObject({ status: "sent" });
    for (const entry of [{ phone: "(11) 95555-4444" }, { email: "rui@example.com" }]) {
      expect((await call(optOuts.POST, "POST", "/x", { key: t.key, body: entry })).status).toBe(201);
      const before = fb.state.sent.length;
      expect((await reply(fbCh.id, psid, "Olá, Rui")).body).toMatchObject({ status: "blocked", reason: "opt_out" });
      expect(fb.state.sent.length).toBe(before);
      const q: Record<string, string> = "phone" in entry ? { phone: "+5511955554444" } : { email: "rui@example.com" };
      expect((await call(optOuts.DELETE, "DELETE", "/x", { key: t.key, query: q })).status).toBe(204);
    }
    expect((await reply(fbCh.id, psid, "Olá, Rui")).body).toMatchObject({ status: "sent" });
  });

  it("an opt-out word sent to an agent on Instagram puts the chat on the list and blocks members' replies too", async () => {
    const model = await startFakeModel();
    try {
      await setAi(t, model.url, null);
      await grant(t, igCh.id, [t.ownerId]);
      const agent = await createAgent(t, {
        name: "Direct",
        executionMode: "autonomous",
        audience: "all",
        instructions: "Atenda o cliente.",
        channelIds: [igCh.id],
        triggers: ["inbound_message"],
        toolPolicy: { allow: ["reply"] },
      });
      const psid = "7700000000000505";
      await postWebhook(igCh.token, ig.inbound(igCh.secret, psid, { text: "  Stop! " }));
      await processNow();
      expect(await executionsOf(agent.id)).toEqual([]);
      const list = await call(optOuts.GET, "GET", "/x", { key: t.key });
      expect(list.body.items.find((i: any) => i.chatId === psid)).toMatchObject({ channelId: igCh.id, reason: "opt-out word sent to an agent" });
      expect((await reply(igCh.id, psid, "Tudo bem?")).body).toMatchObject({ status: "blocked", reason: "opt_out" });
      // Another message in the chat is not an opt-out word: the chat stays on the list.
      await postWebhook(igCh.token, ig.inbound(igCh.secret, psid, { text: "Parar com o quê?" }));
      await processNow();
      expect((await reply(igCh.id, psid, "Tudo bem?")).body).toMatchObject({ status: "blocked", reason: "opt_out" });
      await call(agentRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: agent.id } });
    } finally {
      await model.close();
    }
  });

  it("another tenant sees none of these conversations and cannot reply", async () => {
    const stranger = await makeMember(other, "owner");
    for (const key of [other.key, stranger.key]) {
      const list = await call(listRoute.GET, "GET", "/x", { key, query: { transports: ["instagram", "facebook_messenger"] } });
      expect(list.body.conversations).toEqual([]);
      expect((await reply(igCh.id, "7700000000000101", "x", key)).body).toMatchObject({ status: "forbidden", reason: "not_found_or_inaccessible" });
    }
  });
});
