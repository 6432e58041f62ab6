/**
 * Gateway webhooks: HMAC verified over the exact bytes, stored before the 200, processed into
 * conversation records in the background, `@lid` ids mapped, labels and session status kept, and
 * `channel.message.*` events with exactly the spec's fields, for open chats only.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { events, messagingChannels, messagingConversations, messagingInboundEvents } from "../../../db/schema";
import { MAX_ATTEMPTS } from "../../../lib/messaging/inbound/process-events";
import { startFakeWaha, type FakeWaha } from "../../fakes/waha-gateway";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { makeWahaChannel, postWebhook, processNow, receive, setPrivacy, type TestChannel } from "../../helpers/messaging";

let gw: FakeWaha;
let t: TestTenant;
let ch: TestChannel;

beforeAll(async () => {
  gw = await startFakeWaha();
  t = await makeTenant();
  ch = await makeWahaChannel(t, gw);
});
afterAll(() => gw.close());

const conv = async (channelId: string, chatId: string) =>
  (
    await (
      await getDb()
    )
      .select()
      .from(messagingConversations)
      .where(and(eq(messagingConversations.channelId, channelId), eq(messagingConversations.chatId, chatId)))
  )[0];
const messageEvents = async (messageId: string) => await (await getDb()).select().from(events).where(eq(events.entityId, messageId));

describe("POST /api/webhooks/messaging/{channelToken}", () => {
  it("refuses a bad signature, an unknown token and a body that is not JSON, storing nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(messagingInboundEvents)).length;
    const wh = gw.webhook(ch.secret, "message", { id: "x1", timestamp: 1, from: "5511911110000@c.us", body: "oi" });
    expect((await postWebhook(ch.token, { ...wh, headers: { ...wh.headers, "x-webhook-hmac": "00".repeat(64) } })).status).toBe(401);
    expect((await postWebhook(ch.token, { body: wh.body, headers: { "content-type": "application/json" } })).status).toBe(401);
    expect((await postWebhook(ch.token, gw.webhook("wrong-secret", "message", {}))).status).toBe(401);
    expect((await postWebhook(`msg_${"A".repeat(32)}`, wh)).status).toBe(404);
    expect((await postWebhook("../../etc", wh)).status).toBe(404);
    const notJson = "{nope";
    const { createHmac } = await import("node:crypto");
    const sig = createHmac("sha512", ch.secret).update(notJson).digest("hex");
    expect((await postWebhook(ch.token, { body: notJson, headers: { "x-webhook-hmac": sig, "x-webhook-hmac-algorithm": "sha512" } })).status).toBe(400);
    expect((await db.select().from(messagingInboundEvents)).length).toBe(before);
  });

  it("a webhook whose processing fails is tried again after a claim's stale time, and marked failed after the last attempt", async () => {
    // A timestamp past what a date can hold: accepted (it is stored as sent), then processing throws.
    const wh = gw.inbound(ch.secret, "5511987650099@c.us", "data impossível", { timestamp: 1e15 } as never);
    const res = await postWebhook(ch.token, wh);
    expect(res.status).toBe(200);
    const db = await getDb();
    const row = async () => (await db.select().from(messagingInboundEvents).where(eq(messagingInboundEvents.id, res.body.id)))[0];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await processNow();
      const r = await row();
      expect(r.attempts).toBe(attempt);
      expect(r.error).toBeTruthy();
      expect(r.status).toBe(attempt < MAX_ATTEMPTS ? "processing" : "failed");
      // Not retried at once: only once its claim is stale (as if two minutes passed).
      await processNow();
      expect((await row()).attempts).toBe(attempt);
      await db
        .update(messagingInboundEvents)
        .set({ claimedAt: new Date(Date.now() - 3_600_000) })
        .where(eq(messagingInboundEvents.id, r.id));
    }
    await processNow();
    expect(await row()).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
  });

  it("a NUL or lone surrogate in a chat id or text is cleaned and the message processed (it used to fail, and fail to record its failure, forever)", async () => {
    const wh = gw.inbound(ch.secret, "5511987650077@c.us\u0000", "Oi\u0000 \ud800", { pushName: "Nu\u0000lo" });
    const res = await postWebhook(ch.token, wh);
    expect(res.status).toBe(200);
    await processNow();
    const db = await getDb();
    const [row] = await db.select().from(messagingInboundEvents).where(eq(messagingInboundEvents.id, res.body.id));
    expect(row).toMatchObject({ status: "processed", error: null });
    expect(await conv(ch.id, "5511987650077@c.us")).toMatchObject({ displayName: "Nulo", lastPreview: "Oi \uFFFD" });
  });

  it("stores before answering, then builds the conversation and a received event with exactly the spec's fields", async () => {
    const chatId = "5511987650001@c.us";
    const wh = gw.inbound(ch.secret, chatId, "Olá, tenho interesse no apartamento", { pushName: "Carla Souza" });
    const res = await postWebhook(ch.token, wh);
    expect(res.status).toBe(200);
    const db = await getDb();
    const [stored] = await db.select().from(messagingInboundEvents).where(eq(messagingInboundEvents.id, res.body.id));
    expect(stored).toMatchObject({ status: "received", event: "message", body: wh.body });
    expect(await conv(ch.id, chatId)).toBeUndefined();

    await processNow();
    const c = await conv(ch.id, chatId);
    expect(c).toMatchObject({
      displayName: "Carla Souza",
      lastPreview: "Olá, tenho interesse no apartamento",
      unreadCount: 1,
      awaitingReply: true,
      lastFromMe: false,
      handleMasked: "+55 •••••••0001",
    });
    const [e] = await messageEvents(wh.msg.id);
    expect(e).toMatchObject({ eventName: "channel.message.received", entityType: "channel_message", entityId: wh.msg.id, userId: null });
    expect(Object.keys(e.data).sort()).toEqual([
      "channelId",
      "channelType",
      "chatId",
      "direction",
      "hasMedia",
      "mediaType",
      "messageId",
      "messageType",
      "sessionName",
      "textLength",
      "timestamp",
    ]);
    expect(e.data).toMatchObject({
      channelId: ch.id,
      channelType: "whatsapp",
      chatId,
      messageId: wh.msg.id,
      messageType: "text",
      direction: "inbound",
      sessionName: gw.session,
      textLength: 35,
      hasMedia: false,
      mediaType: null,
    });
    const text = JSON.stringify(e);
    expect(text).not.toContain("interesse");
    expect(text).not.toContain("Carla");
  });

  it("counts a message delivered twice (message and message.any) once, and a reply from the phone clears unread", async () => {
    const chatId = "5511987650002@c.us";
    const wh = gw.inbound(ch.secret, chatId, "primeira");
    await postWebhook(ch.token, wh);
    await postWebhook(ch.token, gw.webhook(ch.secret, "message.any", { ...wh.msg }));
    await processNow();
    expect((await conv(ch.id, chatId)).unreadCount).toBe(1);
    expect(await messageEvents(wh.msg.id)).toHaveLength(1);

    const mine = gw.addMessage(chatId, { body: "Oi! Posso ajudar?", fromMe: true, timestamp: wh.msg.timestamp + 5 });
    await postWebhook(ch.token, gw.webhook(ch.secret, "message.any", { ...mine }));
    await processNow();
    expect(await conv(ch.id, chatId)).toMatchObject({ unreadCount: 0, awaitingReply: false, lastFromMe: true, lastPreview: "Oi! Posso ajudar?" });
    const [sent] = await messageEvents(mine.id);
    expect(sent).toMatchObject({ eventName: "channel.message.sent" });
    expect(sent.data).toMatchObject({ direction: "outbound", chatId });
  });

  it("gives media as a descriptor only, never its URL", async () => {
    const msg = await receive(gw, ch, "5511987650003@c.us", "", {
      hasMedia: true,
      media: { url: "http://gw.internal/files/secret.jpg", mimetype: "image/jpeg" },
    });
    const [e] = await messageEvents(msg.id);
    expect(e.data).toMatchObject({ hasMedia: true, mediaType: "image/jpeg", messageType: "image" });
    expect(JSON.stringify(e)).not.toContain("secret.jpg");
    expect((await conv(ch.id, "5511987650003@c.us")).lastPreview).toBe("[image]");
  });

  it("maps @lid ids to the phone form when the gateway knows it, and renames the record once it learns it", async () => {
    gw.state.lids.set("111222333@lid", "5511987650004@c.us");
    await receive(gw, ch, "111222333@lid", "via lid");
    expect(await conv(ch.id, "5511987650004@c.us")).toMatchObject({ lid: "111222333@lid", lastPreview: "via lid" });

    await receive(gw, ch, "999888777@lid", "ainda sem telefone");
    expect(await conv(ch.id, "999888777@lid")).toMatchObject({ lastPreview: "ainda sem telefone", handleMasked: "•••8777" });
    gw.state.lids.set("999888777@lid", "5511987650005@c.us");
    await receive(gw, ch, "999888777@lid", "agora com telefone");
    expect(await conv(ch.id, "999888777@lid")).toBeUndefined();
    expect(await conv(ch.id, "5511987650005@c.us")).toMatchObject({ lid: "999888777@lid", unreadCount: 2, lastPreview: "agora com telefone" });
  });

  it("keeps the session status as the connection state, and labels per chat", async () => {
    await postWebhook(ch.token, gw.webhook(ch.secret, "session.status", { name: gw.session, status: "SCAN_QR_CODE" }));
    await processNow();
    const db = await getDb();
    expect((await db.select().from(messagingChannels).where(eq(messagingChannels.id, ch.id)))[0].connectionState).toBe("awaiting_auth");
    await postWebhook(ch.token, gw.webhook(ch.secret, "session.status", { name: gw.session, status: "WORKING" }));

    const chatId = "5511987650006@c.us";
    await receive(gw, ch, chatId, "label me");
    await postWebhook(ch.token, gw.webhook(ch.secret, "label.upsert", { id: "7", name: "Quente", color: 1, colorHex: "#ff0000" }));
    await postWebhook(ch.token, gw.webhook(ch.secret, "label.chat.added", { labelId: "7", chatId }));
    await postWebhook(ch.token, gw.webhook(ch.secret, "label.chat.added", { labelId: "8", chatId }));
    await postWebhook(ch.token, gw.webhook(ch.secret, "label.chat.deleted", { labelId: "8", chatId }));
    await processNow();
    expect((await conv(ch.id, chatId)).labels).toEqual(["7"]);
    expect((await db.select().from(messagingChannels).where(eq(messagingChannels.id, ch.id)))[0].connectionState).toBe("connected");
  });

  it("raises inbound events only for whitelisted chats on a privacy channel", async () => {
    const priv = await makeWahaChannel(t, gw, { privacyMode: "whitelist" });
    await setPrivacy(t, priv.id, "5511987650011@c.us", "whitelisted");
    await setPrivacy(t, priv.id, "5511987650012@c.us", "pending");
    const a = await receive(gw, priv, "5511987650011@c.us", "ok");
    const b = await receive(gw, priv, "5511987650012@c.us", "pendente");
    const c = await receive(gw, priv, "5511987650013@c.us", "desconhecido");
    expect(await messageEvents(a.id)).toHaveLength(1);
    expect(await messageEvents(b.id)).toHaveLength(0);
    expect(await messageEvents(c.id)).toHaveLength(0);
    // The records exist (they are counted), but no event leaves for them.
    expect(await conv(priv.id, "5511987650013@c.us")).toBeDefined();
  });
});
