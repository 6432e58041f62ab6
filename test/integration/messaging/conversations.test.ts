/**
 * GET /api/v1/messaging/conversations: grants decide everything (two tenants, two brokers with
 * different grants, an owner without any), strict query, opaque cursor tied to tenant and filters,
 * privacy counting and redaction, masked handles, sort, search, mock exclusion, x-api-key and the
 * rate-limit headers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "../../../app/api/v1/messaging/conversations/route";
import type { FakeWaha } from "../../fakes/waha-gateway";
import type { TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { grant, makeWahaChannel, messagingCast, receive, setPrivacy, type TestChannel, type TestMember } from "../../helpers/messaging";

let gw: FakeWaha;
let t: TestTenant;
let other: TestTenant;
let ana: TestMember;
let bruno: TestMember;
let anaCh: TestChannel;
let brunoCh: TestChannel;
let otherCh: TestChannel;

const list = (key: string, query: Record<string, string | string[]> = {}) => call(listRoute.GET, "GET", "/api/v1/messaging/conversations", { key, query });

beforeAll(async () => {
  ({ gw, t, other, ana, bruno } = await messagingCast());
  anaCh = await makeWahaChannel(t, gw, { name: "WhatsApp Ana", ownerId: ana.userId });
  brunoCh = await makeWahaChannel(t, gw, { name: "WhatsApp Bruno", ownerId: bruno.userId, privacyMode: "whitelist" });
  otherCh = await makeWahaChannel(other, gw, { name: "Outra imobiliária", ownerId: other.ownerId });
  const base = Math.floor(Date.now() / 1000) - 3600;
  for (let i = 0; i < 25; i++) {
    await receive(gw, anaCh, `55119876${String(i).padStart(5, "0")}@c.us`, `mensagem ${i}`, { pushName: `Cliente ${i}`, timestamp: base + i * 10 });
  }
  await receive(gw, brunoCh, "5521900000001@c.us", "liberado", { pushName: "Whitelisted" });
  await receive(gw, brunoCh, "5521900000002@c.us", "segredo pendente", { pushName: "Pendente" });
  await receive(gw, brunoCh, "5521900000003@c.us", "desconhecido", { pushName: "Oculto" });
  await setPrivacy(t, brunoCh.id, "5521900000001@c.us", "whitelisted");
  await setPrivacy(t, brunoCh.id, "5521900000002@c.us", "pending");
  await receive(gw, otherCh, "5531900000001@c.us", "de outro tenant");
  // Blacklisted on a channel without privacy: absent and counted.
  await setPrivacy(t, anaCh.id, "5511987600024@c.us", "hidden");
}, 120_000);
afterAll(() => gw.close());

describe("who sees what", () => {
  it("a key without accessible channels gets an empty 200 with no_accessible_channels", async () => {
    const res = await list(t.key); // the tenant's owner holds no grant
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      policy: {
        principal: "tenant_member",
        tenantScoped: true,
        riskTier: "read",
        mutates: false,
        enforcedGates: ["tenant_scope", "channel_access_grant", "chat_privacy_mode", "mock_channel_exclusion"],
        disabledReasons: ["no_accessible_channels"],
      },
      conversations: [],
      redaction: { privacyFilteredCount: 0, redactedCount: 0 },
      page: { returned: 0, hasMore: false, nextCursor: null },
      scope: { accessibleChannelCount: 0, privacyEnabledChannelCount: 0 },
    });
  });

  it("each broker sees only the channels it owns or is granted; nothing of another tenant", async () => {
    const a = await list(ana.key, { limit: "100" });
    expect(a.body.conversations).toHaveLength(24);
    expect(new Set(a.body.conversations.map((c: any) => c.key.channelId))).toEqual(new Set([anaCh.id]));
    expect(a.body.redaction.privacyFilteredCount).toBe(1);
    const b = await list(bruno.key, { limit: "100" });
    expect(b.body.conversations.map((c: any) => c.participant.displayName).sort()).toEqual(["Pendente", "Whitelisted"]);
    expect(b.body.redaction).toEqual({ privacyFilteredCount: 1, redactedCount: 1 });
    expect(b.body.scope).toEqual({ accessibleChannelCount: 1, privacyEnabledChannelCount: 1 });
    const all = JSON.stringify([a.body, b.body]);
    expect(all).not.toContain("de outro tenant");
    expect(all).not.toContain("desconhecido");
    expect(all).not.toContain("Oculto");
    expect(all).not.toContain(gw.url);
    expect(all).not.toContain(gw.session);
    expect((await list(other.key)).body.conversations.map((c: any) => c.key.channelId)).toEqual([otherCh.id]);

    await grant(t, brunoCh.id, [ana.userId]);
    const both = await list(ana.key, { limit: "100" });
    expect(both.body.conversations).toHaveLength(26);
    expect(both.body.scope).toEqual({ accessibleChannelCount: 2, privacyEnabledChannelCount: 1 });
    await grant(t, brunoCh.id, []);
  });

  it("gives the item fields of the spec, with masked handles and the pending chat without its preview", async () => {
    const b = await list(bruno.key);
    const pending = b.body.conversations.find((c: any) => c.participant.displayName === "Pendente");
    expect(pending.lastActivity.preview).toBeNull();
    expect(pending.privacy).toEqual({ state: "pending", reason: "privacy_pending_approval", channelPrivacyEnabled: true });
    const open = b.body.conversations.find((c: any) => c.participant.displayName === "Whitelisted");
    expect(open).toMatchObject({
      key: { channelId: brunoCh.id, chatId: "5521900000001@c.us" },
      channel: { id: brunoCh.id, name: "WhatsApp Bruno", transport: "whatsapp", connectionState: "connected" },
      participant: { displayName: "Whitelisted", handleMasked: "+55 •••••••0001", kind: "contact" },
      lastActivity: { preview: "liberado", fromMe: false },
      readState: { unreadCount: 1, isRead: false, awaitingReply: true },
      privacy: { state: "whitelisted", reason: null, channelPrivacyEnabled: true },
      assignment: { status: "open", assignedToType: null, assignedToId: null, queueId: null },
      links: { customerId: null, primaryDealId: null },
      pinnedAt: null,
    });
    expect(JSON.stringify(b.body)).not.toContain("segredo");
    // A pending chat's preview cannot be found by search either.
    expect((await list(bruno.key, { search: "segredo" })).body.conversations).toEqual([]);
  });

  it("excludes mock channels", async () => {
    const mock = await makeWahaChannel(t, gw, { ownerId: ana.userId, mock: true });
    await receive(gw, mock, "5511955550000@c.us", "mock");
    const a = await list(ana.key, { limit: "100" });
    expect(a.body.conversations.map((c: any) => c.key.channelId)).not.toContain(mock.id);
    expect(a.body.scope.accessibleChannelCount).toBe(1);
  });
});

describe("query and paging", () => {
  it("pages through every conversation once, newest first, with an opaque cursor", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await list(ana.key, { limit: "10", ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      if (res.body.page.hasMore) expect(res.body.page.nextCursor).toEqual(expect.any(String));
      seen.push(...res.body.conversations.map((c: any) => c.key.chatId));
      cursor = res.body.page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(24);
    expect(new Set(seen).size).toBe(24);
    expect(seen[0]).toBe("5511987600023@c.us");
  });

  it("refuses a cursor used with other filters, by another tenant, or tampered with", async () => {
    const first = await list(ana.key, { limit: "5" });
    const cursor = first.body.page.nextCursor;
    expect((await list(ana.key, { limit: "7", cursor })).status).toBe(200);
    for (const [key, q] of [
      [ana.key, { cursor, unreadOnly: "true" }],
      [other.key, { cursor }],
      [bruno.key, { cursor }],
      [ana.key, { cursor: cursor.replace(/^./, (c: string) => (c === "e" ? "f" : "e")) }],
      [ana.key, { cursor: "garbage" }],
    ] as const) {
      const res = await list(key, q as Record<string, string>);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("cursor");
    }
  });

  it("is strict: unknown parameters, comma-separated arrays and bad values are 400s naming them", async () => {
    const cases: [Record<string, string | string[]>, string][] = [
      [{ utm_source: "x" }, "utm_source"],
      [{ limt: "5" }, "limt"],
      [{ transports: "whatsapp,email" }, "transports"],
      [{ connectionStates: "connected,error" }, "connectionStates"],
      [{ transports: "telegram" }, "transports"],
      [{ limit: "0" }, "limit"],
      [{ limit: "101" }, "limit"],
      [{ unreadOnly: "yes" }, "unreadOnly"],
      [{ sort: "oldest" }, "sort"],
      [{ channelId: "../x" }, "channelId"],
      [{ limit: ["5", "6"] }, "limit"],
    ];
    for (const [q, name] of cases) {
      const res = await list(ana.key, q);
      expect(res.status, name).toBe(400);
      expect(res.body.error.message, name).toContain(name);
    }
    const repeated = await list(ana.key, { transports: ["whatsapp", "email"], connectionStates: ["connected"] });
    expect(repeated.status).toBe(200);
    expect(repeated.body.conversations.length).toBeGreaterThan(0);
    expect((await list(ana.key, { transports: "email" })).body.conversations).toEqual([]);
  });

  it("filters and sorts: unread first, awaiting reply, search by name, handle or preview, one channel", async () => {
    expect((await list(ana.key, { search: "Cliente 7" })).body.conversations.map((c: any) => c.participant.displayName)).toEqual(["Cliente 7"]);
    expect((await list(ana.key, { search: "mensagem 12" })).body.conversations).toHaveLength(1);
    expect((await list(ana.key, { search: "%" })).body.conversations).toEqual([]);
    expect((await list(ana.key, { search: "0003" })).body.conversations.map((c: any) => c.participant.handleMasked)).toEqual(["+55 •••••••0003"]);
    expect((await list(ana.key, { channelId: brunoCh.id })).body.conversations).toEqual([]);
    expect((await list(ana.key, { channelId: anaCh.id, awaitingReplyOnly: "true", limit: "100" })).body.conversations).toHaveLength(24);
    // One conversation answered from the phone: no longer unread; unread_first puts it last.
    const chatId = "5511987600023@c.us";
    const mine = gw.addMessage(chatId, { body: "respondido", fromMe: true });
    const { postWebhook, processNow } = await import("../../helpers/messaging");
    await postWebhook(anaCh.token, gw.webhook(anaCh.secret, "message.any", { ...mine }));
    await processNow();
    const unreadFirst = await list(ana.key, { sort: "unread_first", limit: "100" });
    expect(unreadFirst.body.conversations.at(-1).key.chatId).toBe(chatId);
    expect(unreadFirst.body.conversations[0].readState.unreadCount).toBe(1);
    expect((await list(ana.key, { unreadOnly: "true", limit: "100" })).body.conversations).toHaveLength(23);
    // Paging in unread_first order also visits every item once.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await list(ana.key, { sort: "unread_first", limit: "7", ...(cursor ? { cursor } : {}) });
      seen.push(...res.body.conversations.map((c: any) => c.key.chatId));
      cursor = res.body.page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(unreadFirst.body.conversations.map((c: any) => c.key.chatId));
  });
});

describe("authentication and rate limit", () => {
  it("accepts x-api-key, refuses no key, and sends RateLimit headers", async () => {
    const res = await call(listRoute.GET, "GET", "/api/v1/messaging/conversations", { headers: { "x-api-key": ana.key } });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toBe('"messaging";q=1000;w=3600');
    expect(res.headers.get("ratelimit")).toMatch(/^"messaging";r=\d+;t=\d+$/);
    expect((await call(listRoute.GET, "GET", "/x")).status).toBe(401);
    expect((await call(listRoute.GET, "GET", "/x", { headers: { "x-api-key": "crm_nope" } })).status).toBe(401);
  });
});
