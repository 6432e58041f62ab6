/**
 * Web-chat channels: created like any messaging channel (no gateway), attached to sites
 * (`chat.channelId`) and share pages (`sharingConfig.chatChannelId`), each checked to be a
 * `web_chat` channel of the same tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as channelRoute from "../../../app/api/v1/settings/messaging-channels/[id]/route";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import * as siteRoute from "../../../app/api/v1/sites/[siteId]/route";
import { startFakeWaha, type FakeWaha } from "../../fakes/waha-gateway";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeWahaChannel } from "../../helpers/messaging";
import { makeSite } from "../../helpers/sites";

let gw: FakeWaha;
let t: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  gw = await startFakeWaha();
  t = await makeTenant();
  other = await makeTenant();
});
afterAll(() => gw.close());

const createWebChat = (tenant: TestTenant, over: Record<string, unknown> = {}) =>
  call(channelsRoute.POST, "POST", "/api/v1/settings/messaging-channels", { key: tenant.key, body: { name: "Chat do site", transport: "web_chat", ...over } });

describe("web-chat channel", () => {
  it("is created without a gateway: provider web_chat, connected, no webhook to configure", async () => {
    const res = await createWebChat(t);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ transport: "web_chat", provider: "web_chat", connectionState: "connected", gatewayHost: "", ownerId: t.ownerId });
    expect(res.body.webhook).toBeUndefined();
    const list = await call(channelsRoute.GET, "GET", "/api/v1/settings/messaging-channels", { key: t.key });
    expect(list.body.items.map((c: { id: string }) => c.id)).toContain(res.body.id);
  });

  it("refuses gateway fields, at creation and on update", async () => {
    const bad = await createWebChat(t, { baseUrl: "https://waha.example.com" });
    expect(bad.status).toBe(400);
    const { body } = await createWebChat(t);
    const upd = await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: body.id }, body: { apiKey: "k" } });
    expect(upd.status).toBe(400);
    expect(upd.body.error.message).toMatch(/no gateway/);
    const renamed = await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: body.id }, body: { name: "Chat novo" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Chat novo");
  });

  it("does not let another provider carry web chat", async () => {
    const res = await call(channelsRoute.POST, "POST", "/api/v1/settings/messaging-channels", {
      key: t.key,
      body: { name: "x", transport: "whatsapp", provider: "web_chat", baseUrl: gw.url, apiKey: "k", sessionName: "s" },
    });
    expect(res.status).toBe(400);
  });
});

describe("attaching a chat to a site", () => {
  it("takes a web_chat channel of the tenant and shows it on the site", async () => {
    const ch = (await createWebChat(t)).body;
    const site = await makeSite(t, { chat: { channelId: ch.id, greeting: "Olá! Como podemos ajudar?" } });
    expect(site.body.chat).toEqual({ channelId: ch.id, greeting: "Olá! Como podemos ajudar?", offlineMessage: null, hours: null });
    const off = await call(siteRoute.PATCH, "PATCH", "/x", { key: t.key, params: { siteId: site.id }, body: { chat: null } });
    expect(off.status).toBe(200);
    expect(off.body.chat).toBeNull();
  });

  it("refuses another tenant's channel, a WhatsApp channel, bad hours, and changes nothing", async () => {
    const site = await makeSite(t);
    const foreign = (await createWebChat(other)).body;
    const wa = await makeWahaChannel(t, gw);
    const tries = [
      { channelId: foreign.id },
      { channelId: wa.id },
      { channelId: (await createWebChat(t)).body.id, hours: { timeZone: "Mars/Olympus", weekly: [] } },
      { channelId: (await createWebChat(t)).body.id, hours: { weekly: [{ days: [1], from: "25:00", to: "18:00" }] } },
    ];
    for (const chat of tries) {
      const res = await call(siteRoute.PATCH, "PATCH", "/x", { key: t.key, params: { siteId: site.id }, body: { chat } });
      expect(res.status, JSON.stringify(chat)).toBe(400);
    }
    expect((await call(siteRoute.GET, "GET", "/x", { key: t.key, params: { siteId: site.id } })).body.chat).toBeNull();
    const msg = (await call(siteRoute.PATCH, "PATCH", "/x", { key: t.key, params: { siteId: site.id }, body: { chat: { channelId: wa.id } } })).body;
    expect(msg.error.message).toMatch(/chat\.channelId.*not 'web_chat'/);
  });
});

describe("attaching a chat to share pages", () => {
  it("takes the tenant's web_chat channel and refuses others", async () => {
    const ch = (await createWebChat(t)).body;
    const foreign = (await createWebChat(other)).body;
    const wa = await makeWahaChannel(t, gw);
    for (const id of [foreign.id, wa.id]) {
      const res = await call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", { key: t.key, body: { sharingConfig: { chatChannelId: id } } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/sharingConfig\.chatChannelId/);
    }
    const ok = await call(settingsRoute.PATCH, "PATCH", "/api/v1/settings", { key: t.key, body: { sharingConfig: { chatChannelId: ch.id } } });
    expect(ok.status).toBe(200);
    expect(ok.body.sharingConfig.chatChannelId).toBe(ch.id);
  });
});
