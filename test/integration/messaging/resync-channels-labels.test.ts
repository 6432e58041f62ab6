/**
 * POST /messaging/conversations/resync (its four outcomes), GET /messaging/channels (filters,
 * ownedOnly, mock exclusion, nothing of spec 1 §5.8), GET /messaging/labels and
 * /labels/assignments (keyed by the list's chatId, hidden chats absent), and the templates of
 * Cloud channels in the settings.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "../../../app/api/v1/messaging/conversations/route";
import * as detailRoute from "../../../app/api/v1/messaging/conversations/detail/route";
import * as resyncRoute from "../../../app/api/v1/messaging/conversations/resync/route";
import * as channelsRoute from "../../../app/api/v1/messaging/channels/route";
import * as labelsRoute from "../../../app/api/v1/messaging/labels/route";
import * as assignmentsRoute from "../../../app/api/v1/messaging/labels/assignments/route";
import * as templatesRoute from "../../../app/api/v1/settings/messaging-channels/[id]/templates/route";
import * as templateRoute from "../../../app/api/v1/settings/messaging-channels/[id]/templates/[templateId]/route";
import { startFakeCloud, type FakeCloud } from "../../fakes/cloud-gateway";
import { startFakeWaha, type FakeWaha } from "../../fakes/waha-gateway";
import type { TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import {
  grant,
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

let gw: FakeWaha;
let gw2: FakeWaha;
let cloud: FakeCloud;
let t: TestTenant;
let other: TestTenant;
let ana: TestMember;
let bruno: TestMember;
let ch: TestChannel;
let ch2: TestChannel;
let mock: TestChannel;
let cloudId: string;
let cloudHook: TestChannel;

const resync = (key: string, body: unknown) => call(resyncRoute.POST, "POST", "/x", { key, body });
const channels = (key: string, query: Record<string, string | string[]> = {}) => call(channelsRoute.GET, "GET", "/x", { key, query });

beforeAll(async () => {
  ({ gw, t, other, ana, bruno } = await messagingCast());
  gw2 = await startFakeWaha({ session: "bruno" });
  cloud = await startFakeCloud();
  ch = await makeWahaChannel(t, gw, { ownerId: ana.userId, name: "WhatsApp Ana" });
  ch2 = await makeWahaChannel(t, gw2, { ownerId: bruno.userId, name: "WhatsApp Bruno", privacyMode: "whitelist" });
  mock = await makeWahaChannel(t, gw, { ownerId: ana.userId, name: "Mock Ana", mock: true });
  cloudHook = await makeCloudChannel(t, cloud, { name: "Cloud Imobiliária", ownerId: bruno.userId });
  cloudId = cloudHook.id;
  await grant(t, cloudId, [ana.userId]);
}, 60_000);
afterAll(async () => {
  await gw.close();
  await gw2.close();
  await cloud.close();
});
afterEach(() => {
  gw.state.switches = { delayMs: 0, hang: false, failStatus: 0, emptyHistory: false, failTimes: 0 };
});

describe("resync", () => {
  it("recovered: the messages live under the chat's @lid id; the detail reads them afterwards", async () => {
    const phone = "5511987653001@c.us";
    const lid = "777000111@lid";
    // The gateway keeps the chat's messages under its @lid id; the record is keyed by the phone form.
    gw.state.lids.set(lid, phone);
    await receive(gw, ch, lid, "mensagem guardada sob o lid");
    gw.state.chats.set(phone, []);
    // The record does not know the lid either (as when the chat was first seen under the phone form): resync asks the gateway.
    const { getDb } = await import("../../../db/client");
    const { messagingConversations } = await import("../../../db/schema");
    const { and, eq } = await import("drizzle-orm");
    const db = await getDb();
    await db
      .update(messagingConversations)
      .set({ lid: null })
      .where(and(eq(messagingConversations.channelId, ch.id), eq(messagingConversations.chatId, phone)));

    const before = await call(detailRoute.GET, "GET", "/x", { key: ana.key, query: { channelId: ch.id, chatId: phone } });
    expect(before.body.history).toMatchObject({ unavailableReason: "feed_empty_pending_sync", messages: [] });
    const r = await resync(ana.key, { channelId: ch.id, chatId: phone });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ policy: expect.objectContaining({ riskTier: "read" }), outcome: "recovered", rejection: null });
    const after = await call(detailRoute.GET, "GET", "/x", { key: ana.key, query: { channelId: ch.id, chatId: phone } });
    expect(after.body.history.unavailableReason).toBeNull();
    expect(after.body.history.messages.map((m: any) => m.text)).toEqual(["mensagem guardada sob o lid"]);
    // A second resync has nothing to do.
    expect((await resync(ana.key, { channelId: ch.id, chatId: phone })).body.outcome).toBe("nothing_to_resync");
  });

  it("still_empty, unreachable, nothing_to_resync on a channel without history, and rejections", async () => {
    const c = "5511987653002@c.us";
    await receive(gw, ch, c, "oi");
    gw.state.chats.set(c, []);
    expect((await resync(ana.key, { channelId: ch.id, chatId: c })).body.outcome).toBe("still_empty");
    gw.state.switches.failStatus = 502;
    expect((await resync(ana.key, { channelId: ch.id, chatId: c })).body.outcome).toBe("unreachable");
    gw.state.switches.failStatus = 0;
    gw.state.switches.hang = true;
    const t0 = Date.now();
    expect((await resync(ana.key, { channelId: ch.id, chatId: c })).body.outcome).toBe("unreachable");
    expect(Date.now() - t0).toBeLessThan(6000);
    gw.state.switches.hang = false;

    const wh = cloud.inbound(cloudHook.secret, "5511987653003", "oi");
    expect((await postWebhook(cloudHook.token, wh)).status).toBe(200);
    await processNow();
    expect((await resync(ana.key, { channelId: cloudId, chatId: "5511987653003@c.us" })).body.outcome).toBe("nothing_to_resync");
    expect((await resync(bruno.key, { channelId: ch.id, chatId: c })).body).toMatchObject({ outcome: null, rejection: "channel_forbidden" });
    expect((await resync(other.key, { channelId: ch.id, chatId: c })).body).toMatchObject({ outcome: null, rejection: "not_found_or_inaccessible" });
    expect((await resync(ana.key, { channelId: ch.id, chatId: "../" })).body).toMatchObject({ outcome: null, rejection: "not_found_or_inaccessible" });
    expect((await resync(ana.key, { channelId: ch.id, chatId: "x".repeat(10_240) })).status).toBe(400);
    expect((await resync(ana.key, { channelId: ch.id })).status).toBe(400);
  });
});

describe("GET /messaging/channels", () => {
  it("lists the member's channels (own and granted), not mocks, not others', with nothing of §5.8", async () => {
    const res = await channels(ana.key);
    expect(res.status).toBe(200);
    expect(res.body.channels.map((c: any) => c.name)).toEqual(["Cloud Imobiliária", "WhatsApp Ana"]);
    const item = res.body.channels.find((c: any) => c.id === ch.id);
    expect(item).toEqual({
      id: ch.id,
      name: "WhatsApp Ana",
      transport: "whatsapp",
      connectionState: "connected",
      privacyEnabled: false,
      owned: true,
      capabilities: { history: true, templates: false, labels: true },
    });
    const text = JSON.stringify(res.body);
    for (const secret of [gw.url, gw.apiKey, "default", cloud.token, cloud.phoneNumberId, cloud.url, mock.id, ch2.id]) expect(text).not.toContain(secret);
    expect(res.body.channels.find((c: any) => c.id === cloudId).capabilities).toEqual({ history: false, templates: true, labels: false });
    expect(res.headers.get("ratelimit")).toMatch(/^"messaging";r=\d+;t=\d+$/);
  });

  it("filters by transports, connectionStates, ownedOnly and search; strict query", async () => {
    expect((await channels(ana.key, { ownedOnly: "true" })).body.channels.map((c: any) => c.id)).toEqual([ch.id]);
    expect((await channels(ana.key, { transports: "whatsapp_cloud" })).body.channels.map((c: any) => c.id)).toEqual([cloudId]);
    expect((await channels(ana.key, { transports: ["whatsapp_cloud", "whatsapp"] })).body.channels).toHaveLength(2);
    expect((await channels(ana.key, { connectionStates: "error" })).body.channels).toEqual([]);
    expect((await channels(ana.key, { search: "cLoUd" })).body.channels.map((c: any) => c.id)).toEqual([cloudId]);
    expect((await channels(bruno.key)).body.channels.map((c: any) => c.name)).toEqual(["Cloud Imobiliária", "WhatsApp Bruno"]);
    for (const q of [{ transports: "whatsapp,email" }, { utm_source: "x" }, { ownedOnly: "yes" }, { connectionStates: "online" }] as Record<string, string>[]) {
      const r = await channels(ana.key, q);
      expect(r.status).toBe(400);
    }
    const none = await channels(other.key);
    expect(none.body).toMatchObject({ channels: [], policy: { disabledReasons: ["no_accessible_channels"] } });
    // The tenant's owner without grants sees none either.
    expect((await channels(t.key)).body.policy.disabledReasons).toEqual(["no_accessible_channels"]);
  });
});

describe("labels", () => {
  it("lists the channel's labels from the gateway, and assignments keyed by the list's chatId", async () => {
    gw.state.labels.set("1", { id: "1", name: "Novo cliente", color: 0, colorHex: "#ff9485" });
    gw.state.labels.set("2", { id: "2", name: "Visita marcada", color: 1, colorHex: "#64c4ff" });
    const res = await call(labelsRoute.GET, "GET", "/x", { key: ana.key, query: { channelId: ch.id } });
    expect(res.body).toMatchObject({
      channelId: ch.id,
      source: "provider",
      rejection: null,
      labels: [
        { id: "1", name: "Novo cliente", color: "#ff9485" },
        { id: "2", name: "Visita marcada", color: "#64c4ff" },
      ],
    });
    gw.state.switches.hang = true;
    const stored = await call(labelsRoute.GET, "GET", "/x", { key: ana.key, query: { channelId: ch.id } });
    expect(stored.body).toMatchObject({ source: "stored", labels: [{ id: "1" }, { id: "2" }] });
    gw.state.switches.hang = false;

    // A label applied on the device to the chat's @lid id lands on the phone-form chat.
    const phone = "5511987654010@c.us";
    const lid = "555000222@lid";
    gw.state.lids.set(lid, phone);
    await receive(gw, ch, phone, "oi");
    const hidden = "5511987654011@c.us";
    await receive(gw, ch, hidden, "oi");
    await setPrivacy(t, ch.id, hidden, "hidden");
    for (const [chatId, labelId] of [
      [lid, "1"],
      [phone, "2"],
      [hidden, "1"],
    ]) {
      expect((await postWebhook(ch.token, gw.webhook(ch.secret, "label.chat.added", { labelId, chatId, label: null }))).status).toBe(200);
    }
    await processNow();
    const a = await call(assignmentsRoute.GET, "GET", "/x", { key: ana.key, query: { channelId: ch.id } });
    expect(a.body.assignments).toEqual({
      [phone]: [
        { id: "1", name: "Novo cliente", color: "#ff9485" },
        { id: "2", name: "Visita marcada", color: "#64c4ff" },
      ],
    });
    const list = await call(listRoute.GET, "GET", "/x", { key: ana.key, query: { channelId: ch.id } });
    expect(list.body.conversations.map((c: any) => c.key.chatId)).toContain(phone);
    const only2 = await call(assignmentsRoute.GET, "GET", "/x", { key: ana.key, query: { channelId: ch.id, labelId: "2" } });
    expect(Object.keys(only2.body.assignments)).toEqual([phone]);
  });

  it("shows nothing of a channel the member may not use, and is strict", async () => {
    for (const route of [labelsRoute.GET, assignmentsRoute.GET]) {
      const b = await call(route, "GET", "/x", { key: bruno.key, query: { channelId: ch.id } });
      expect(b.status).toBe(200);
      expect(b.body.rejection).toBe("channel_forbidden");
      expect(JSON.stringify(b.body)).not.toMatch(/Novo cliente|@c\.us/);
      const o = await call(route, "GET", "/x", { key: other.key, query: { channelId: ch.id } });
      expect(o.body.rejection).toBe("not_found_or_inaccessible");
      expect((await call(route, "GET", "/x", { key: ana.key, query: {} })).status).toBe(400);
      expect((await call(route, "GET", "/x", { key: ana.key, query: { channelId: ch.id, foo: "1" } })).status).toBe(400);
    }
  });
});

describe("templates in the settings", () => {
  it("registers approved templates on Cloud channels only; admin keys only; tenant-scoped", async () => {
    const add = await call(templatesRoute.POST, "POST", "/x", { key: t.key, params: { id: cloudId }, body: { name: "boas_vindas", language: "pt_BR" } });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ channelId: cloudId, name: "boas_vindas", language: "pt_BR", status: "approved" });
    const onWaha = await call(templatesRoute.POST, "POST", "/x", { key: t.key, params: { id: ch.id }, body: { name: "boas_vindas", language: "pt_BR" } });
    expect(onWaha.status).toBe(400);
    expect(onWaha.body.error.code).toBe("channel_send_unsupported");
    expect(
      (await call(templatesRoute.POST, "POST", "/x", { key: t.key, params: { id: cloudId }, body: { name: "Boas Vindas!", language: "pt_BR" } })).status,
    ).toBe(400);
    expect((await call(templatesRoute.POST, "POST", "/x", { key: ana.key, params: { id: cloudId }, body: { name: "x", language: "pt_BR" } })).status).toBe(403);
    expect((await call(templatesRoute.GET, "GET", "/x", { key: other.key, params: { id: cloudId } })).status).toBe(404);
    const list = await call(templatesRoute.GET, "GET", "/x", { key: t.key, params: { id: cloudId } });
    expect(list.body.items.map((i: any) => i.name)).toEqual(["boas_vindas"]);
    expect((await call(templateRoute.DELETE, "DELETE", "/x", { key: other.key, params: { id: cloudId, templateId: add.body.id } })).status).toBe(404);
    expect((await call(templateRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: cloudId, templateId: add.body.id } })).status).toBe(204);
    expect((await call(templatesRoute.GET, "GET", "/x", { key: t.key, params: { id: cloudId } })).body.items).toEqual([]);
  });
});
