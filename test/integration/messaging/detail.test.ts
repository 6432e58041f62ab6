/**
 * GET /api/v1/messaging/conversations/detail: rejections without chat identity, live history with
 * keyset `before` that neither repeats nor skips at a same-second page edge, media descriptors,
 * every `unavailableReason` (a hanging gateway answered within the budget, one internal retry, the
 * 48-hour rule), hostile chat ids.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as detailRoute from "../../../app/api/v1/messaging/conversations/detail/route";
import { getDb } from "../../../db/client";
import { messagingChannels, messagingConversations } from "../../../db/schema";
import { resetConfigForTests } from "../../../lib/config";
import type { FakeWaha } from "../../fakes/waha-gateway";
import type { TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeWahaChannel, messagingCast, receive, setPrivacy, type TestChannel, type TestMember } from "../../helpers/messaging";

let gw: FakeWaha;
let t: TestTenant;
let other: TestTenant;
let ana: TestMember;
let bruno: TestMember;
let ch: TestChannel;
const chat = "5511987654321@c.us";
const T0 = Math.floor(Date.now() / 1000) - 600;

const detail = (key: string, query: Record<string, string>) => call(detailRoute.GET, "GET", "/api/v1/messaging/conversations/detail", { key, query });

beforeAll(async () => {
  ({ gw, t, other, ana, bruno } = await messagingCast());
  ch = await makeWahaChannel(t, gw, { ownerId: ana.userId });
  // 12 messages; 4 of them share one second, which falls on the edge of a page of 5.
  const stamps = [0, 10, 20, 30, 30, 30, 30, 40, 50, 60, 70];
  for (const [i, s] of stamps.entries())
    gw.addMessage(chat, { body: `m${i}`, timestamp: T0 + s, fromMe: i % 3 === 0, pushName: i % 3 === 0 ? "Ana (celular)" : "Cliente" });
  await receive(gw, ch, chat, "m11", {
    timestamp: T0 + 80,
    pushName: "Cliente",
    hasMedia: true,
    media: { url: "http://gw.internal/f.pdf?token=abc", mimetype: "application/pdf" },
  });
}, 60_000);
afterAll(() => gw.close());
afterEach(() => {
  gw.state.switches = { delayMs: 0, hang: false, failStatus: 0, emptyHistory: false, failTimes: 0 };
  vi.unstubAllEnvs();
  resetConfigForTests();
});

describe("history", () => {
  it("pages with nextBefore through every message once, newest first, never splitting one second", async () => {
    const seen: string[] = [];
    let before: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await detail(ana.key, { channelId: ch.id, chatId: chat, limit: "5", ...(before ? { before } : {}) });
      expect(res.status).toBe(200);
      const h = res.body.history;
      expect(h).toMatchObject({ source: "provider_feed", unavailableReason: null, retryable: false, retryAfterSeconds: null });
      seen.push(...h.messages.map((m: any) => m.text));
      pages++;
      if (!h.hasMore) break;
      expect(h.nextBefore).toEqual(expect.any(String));
      before = h.nextBefore;
    }
    // Newest first; within one second the gateway's order.
    const stampOf = (text: string) => (text === "m11" ? 80 : [0, 10, 20, 30, 30, 30, 30, 40, 50, 60, 70][Number(text.slice(1))]);
    expect(seen.map(stampOf)).toEqual([...seen.map(stampOf)].sort((a, b) => b - a));
    expect(new Set(seen)).toEqual(new Set(["m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11"]));
    expect(seen).toHaveLength(12);
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it("gives authors by the spec's rules and media as descriptors only", async () => {
    const res = await detail(ana.key, { channelId: ch.id, chatId: chat, limit: "100" });
    const msgs = res.body.history.messages;
    const media = msgs.find((m: any) => m.text === "m11");
    expect(media).toMatchObject({
      direction: "inbound",
      messageType: "document",
      authorId: null,
      authorName: "Cliente",
      media: { kind: "document", mimeType: "application/pdf", available: true },
    });
    expect(Object.keys(media.media).sort()).toEqual(["available", "kind", "mimeType"]);
    expect(JSON.stringify(res.body)).not.toContain("gw.internal");
    expect(JSON.stringify(res.body)).not.toContain(gw.url);
    // Sent from the phone: no authorId, the push name.
    expect(msgs.find((m: any) => m.text === "m0")).toMatchObject({ direction: "outbound", authorId: null, authorName: "Ana (celular)" });
    expect(res.body.conversation.key).toEqual({ channelId: ch.id, chatId: chat });
  });

  it("includeHistory=false answers only the state", async () => {
    const res = await detail(ana.key, { channelId: ch.id, chatId: chat, includeHistory: "false" });
    expect(res.body.history).toBeNull();
    expect(res.body.conversation.lastActivity.preview).toBe("m11");
  });

  it("answers feed_timeout within the budget when the gateway hangs", async () => {
    vi.stubEnv("MESSAGING_HISTORY_BUDGET_MS", "600");
    resetConfigForTests();
    gw.state.switches.hang = true;
    const started = Date.now();
    const res = await detail(ana.key, { channelId: ch.id, chatId: chat });
    const took = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.history).toMatchObject({
      unavailableReason: "feed_timeout",
      retryable: true,
      retryAfterSeconds: expect.any(Number),
      messages: [],
      hasMore: false,
      nextBefore: null,
    });
    expect(took).toBeLessThan(1500);
    expect(res.body.conversation).not.toBeNull();
  });

  it("retries once inside the budget, then reports feed_transport_unreachable", async () => {
    gw.state.switches.failTimes = 1;
    const recovered = await detail(ana.key, { channelId: ch.id, chatId: chat });
    expect(recovered.body.history.unavailableReason).toBeNull();
    expect(recovered.body.history.messages.length).toBeGreaterThan(0);
    gw.state.switches.failStatus = 500;
    const res = await detail(ana.key, { channelId: ch.id, chatId: chat });
    expect(res.body.history).toMatchObject({ unavailableReason: "feed_transport_unreachable", retryable: true, messages: [] });
  });

  it("classifies an empty first page by the 48-hour rule", async () => {
    gw.state.switches.emptyHistory = true;
    const recent = await detail(ana.key, { channelId: ch.id, chatId: chat });
    expect(recent.body.history).toMatchObject({
      unavailableReason: "feed_empty_pending_sync",
      retryable: true,
      retryAfterSeconds: expect.any(Number),
      messages: [],
      hasMore: false,
    });
    const db = await getDb();
    await db
      .update(messagingConversations)
      .set({ lastActivityAt: new Date(Date.now() - 49 * 3600_000) })
      .where(eq(messagingConversations.chatId, chat));
    const old = await detail(ana.key, { channelId: ch.id, chatId: chat });
    expect(old.body.history).toMatchObject({ unavailableReason: "feed_history_not_on_provider", retryable: false, retryAfterSeconds: null });
    await db.update(messagingConversations).set({ lastActivityAt: new Date() }).where(eq(messagingConversations.chatId, chat));
  });

  it("reports feed_channel_not_connected for error, expired and awaiting_auth channels, without calling the gateway", async () => {
    const db = await getDb();
    for (const state of ["error", "expired", "awaiting_auth"]) {
      await db.update(messagingChannels).set({ connectionState: state }).where(eq(messagingChannels.id, ch.id));
      const calls = gw.state.requests.length;
      const res = await detail(ana.key, { channelId: ch.id, chatId: chat });
      expect(res.body.history).toMatchObject({ unavailableReason: "feed_channel_not_connected", retryable: false });
      expect(gw.state.requests.length).toBe(calls);
    }
    await db.update(messagingChannels).set({ connectionState: "connected" }).where(eq(messagingChannels.id, ch.id));
  });
});

describe("rejections", () => {
  it("never shows a conversation without access, and never names the chat", async () => {
    const ok = { channelId: ch.id, chatId: chat };
    const forbidden = await detail(bruno.key, ok);
    expect(forbidden.body).toMatchObject({ conversation: null, rejection: "channel_forbidden", history: null });
    expect(JSON.stringify(forbidden.body)).not.toContain("5511987654321");
    expect((await detail(t.key, ok)).body.rejection).toBe("channel_forbidden");
    expect((await detail(other.key, ok)).body.rejection).toBe("not_found_or_inaccessible");
    expect((await detail(ana.key, { channelId: "00000000-0000-4000-8000-000000000000", chatId: chat })).body.rejection).toBe("not_found_or_inaccessible");
    for (const chatId of ["../", "@", "../../api/sessions/default", "5511987654321@c.us/../x", "%2e%2e%2f"]) {
      const before = gw.state.requests.length;
      const res = await detail(ana.key, { channelId: ch.id, chatId });
      expect(res.status, chatId).toBe(200);
      expect(res.body.rejection, chatId).toBe("not_found_or_inaccessible");
      expect(gw.state.requests.length).toBe(before);
    }
    const huge = await detail(ana.key, { channelId: ch.id, chatId: `${"9".repeat(10_000)}@c.us` });
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toContain("chatId");
    expect((await detail(ana.key, { channelId: ch.id })).status).toBe(400);
    expect((await detail(ana.key, { ...ok, before: "yesterday" })).status).toBe(400);
    expect((await detail(ana.key, { ...ok, extra: "1" })).status).toBe(400);
  });

  it("privacy: hidden chats are privacy_restricted; pending chats lose text and authors", async () => {
    const priv = await makeWahaChannel(t, gw, { ownerId: ana.userId, privacyMode: "whitelist" });
    await receive(gw, priv, "5511911110001@c.us", "texto pendente", { pushName: "P" });
    await receive(gw, priv, "5511911110002@c.us", "texto oculto");
    await setPrivacy(t, priv.id, "5511911110001@c.us", "pending");
    const hidden = await detail(ana.key, { channelId: priv.id, chatId: "5511911110002@c.us" });
    expect(hidden.body).toMatchObject({ conversation: null, rejection: "privacy_restricted" });
    const pending = await detail(ana.key, { channelId: priv.id, chatId: "5511911110001@c.us" });
    expect(pending.body.conversation.lastActivity.preview).toBeNull();
    expect(pending.body.history.messages[0]).toMatchObject({ text: null, authorId: null, authorName: null });
    expect(JSON.stringify(pending.body)).not.toContain("texto pendente");
  });
});
