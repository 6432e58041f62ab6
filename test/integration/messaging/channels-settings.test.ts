/**
 * Messaging channel settings: create (webhook URL and HMAC secret once, credentials encrypted at
 * rest, status read from the gateway), read, update, delete, grants, chat privacy list, opt-outs,
 * private gateway URLs in production, tenant isolation and the admin rule.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as channelRoute from "../../../app/api/v1/settings/messaging-channels/[id]/route";
import * as privacyRoute from "../../../app/api/v1/settings/messaging-channels/[id]/chat-privacy/route";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as optOutsRoute from "../../../app/api/v1/settings/messaging/opt-outs/route";
import { getDb } from "../../../db/client";
import { messagingChannels } from "../../../db/schema";
import { resetConfigForTests } from "../../../lib/config";
import { startFakeWaha, type FakeWaha } from "../../fakes/waha-gateway";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { grant, makeWahaChannel } from "../../helpers/messaging";

let gw: FakeWaha;
let t: TestTenant;
let other: TestTenant;

beforeAll(async () => {
  gw = await startFakeWaha();
  t = await makeTenant();
  other = await makeTenant();
});
afterAll(() => gw.close());

const body = (over: Record<string, unknown> = {}) => ({
  name: "WhatsApp Ana",
  transport: "whatsapp",
  provider: "waha",
  baseUrl: gw.url,
  apiKey: gw.apiKey,
  sessionName: gw.session,
  ...over,
});

describe("creating a channel", () => {
  it("answers the webhook URL and HMAC secret once, stores credentials encrypted, reads the session status", async () => {
    const res = await call(channelsRoute.POST, "POST", "http://crm.example.com/api/v1/settings/messaging-channels", { key: t.key, body: body() });
    expect(res.status).toBe(201);
    expect(res.body.webhook.url).toMatch(/^http:\/\/crm\.example\.com\/api\/webhooks\/messaging\/msg_[A-Za-z0-9_-]{32}$/);
    expect(res.body.webhook.hmacSecret.length).toBeGreaterThanOrEqual(40);
    expect(res.body).toMatchObject({
      transport: "whatsapp",
      provider: "waha",
      ownerId: t.ownerId,
      privacyMode: "off",
      mock: false,
      connectionState: "connected",
    });
    expect(JSON.stringify(res.body)).not.toContain(gw.apiKey);
    expect(res.body).not.toHaveProperty("sessionName");

    const read = await call(channelRoute.GET, "GET", "/x", { key: t.key, params: { id: res.body.id } });
    expect(read.status).toBe(200);
    expect(read.body.webhook).toBeUndefined();
    expect(JSON.stringify(read.body)).not.toContain(gw.apiKey);
    expect(JSON.stringify(read.body)).not.toContain(res.body.webhook.hmacSecret);

    const [row] = await (await getDb()).select().from(messagingChannels).where(eq(messagingChannels.id, res.body.id));
    expect(row.credentials).toMatch(/^v1\./);
    expect(row.credentials).not.toContain(gw.apiKey);
    expect(row.credentials).not.toContain(gw.session);
    expect(row.webhookSecret).not.toContain(res.body.webhook.hmacSecret);
  });

  it("keeps awaiting_auth from a session waiting for its QR code, and error from a gateway that refuses the key", async () => {
    gw.state.status = "SCAN_QR_CODE";
    const qr = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: body() });
    gw.state.status = "WORKING";
    expect(qr.body.connectionState).toBe("awaiting_auth");
    const bad = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: body({ apiKey: "wrong" }) });
    expect(bad.status).toBe(201);
    expect(bad.body.connectionState).toBe("error");
  });

  it("refuses bad bodies with the field named", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [body({ transport: "telegram" }), "transport"],
      [body({ provider: "waha", transport: "whatsapp_cloud" }), "transport"],
      [body({ baseUrl: "ftp://x" }), "baseUrl"],
      [body({ baseUrl: "http://user:pw@gw.example.com" }), "baseUrl"],
      [body({ ownerId: "00000000-0000-4000-8000-000000000000" }), "ownerId"],
      [body({ privacyMode: "strict" }), "privacyMode"],
      [{ ...body(), connectionState: "connected" }, "connectionState"],
      [body({ apiKey: undefined }), "apiKey"],
    ];
    for (const [b, field] of cases) {
      const res = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: b });
      expect(res.status, field).toBe(400);
      expect(res.body.error.message, field).toContain(field);
    }
  });

  it("refuses private and loopback gateways in production unless WEBHOOKS_ALLOW_PRIVATE_URLS=true", async () => {
    vi.stubEnv("NODE_ENV", "production");
    resetConfigForTests();
    try {
      for (const url of [gw.url, "https://localhost:3000", "https://10.0.0.5", "https://[::1]:8080", "http://waha.example.com"]) {
        const res = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: body({ baseUrl: url }) });
        expect(res.status, url).toBe(400);
        expect(res.body.error.message).toContain("baseUrl");
      }
      vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", "true");
      resetConfigForTests();
      const ok = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: body() });
      expect(ok.status).toBe(201);
    } finally {
      vi.unstubAllEnvs();
      resetConfigForTests();
    }
  });
});

describe("reading, changing and deleting", () => {
  it("lists, patches and deletes; another tenant gets 404 and a broker 403", async () => {
    const c = await makeWahaChannel(t, gw);
    const list = await call(channelsRoute.GET, "GET", "/x", { key: t.key });
    expect(list.body.items.map((i: any) => i.id)).toContain(c.id);
    expect((await call(channelsRoute.GET, "GET", "/x", { key: other.key })).body.items).toEqual([]);
    expect((await call(channelRoute.GET, "GET", "/x", { key: other.key, params: { id: c.id } })).status).toBe(404);
    expect((await call(channelRoute.PATCH, "PATCH", "/x", { key: other.key, params: { id: c.id }, body: { name: "x" } })).status).toBe(404);
    expect((await call(channelRoute.DELETE, "DELETE", "/x", { key: other.key, params: { id: c.id } })).status).toBe(404);
    const broker = await makeMember(t, "broker");
    expect((await call(channelsRoute.GET, "GET", "/x", { key: broker.key })).status).toBe(403);

    const patched = await call(channelRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { id: c.id },
      body: { name: "Novo nome", privacyMode: "whitelist", apiKey: "rotated-key" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "Novo nome", privacyMode: "whitelist" });
    expect((await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: c.id }, body: { provider: "whatsapp_cloud" } })).status).toBe(400);
    expect((await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: c.id }, body: {} })).status).toBe(400);

    expect((await call(channelRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: c.id } })).status).toBe(204);
    expect((await call(channelRoute.GET, "GET", "/x", { key: t.key, params: { id: c.id } })).status).toBe(404);
    expect((await call(channelRoute.GET, "GET", "/x", { key: t.key, params: { id: "../etc" } })).status).toBe(404);
  });

  it("sets grants to members of the tenant only", async () => {
    const c = await makeWahaChannel(t, gw);
    const broker = await makeMember(t, "broker");
    const foreign = await makeMember(other, "broker");
    await grant(t, c.id, [broker.userId]);
    expect((await call(channelRoute.GET, "GET", "/x", { key: t.key, params: { id: c.id } })).body.grants).toEqual([broker.userId]);
    const { PUT } = await import("../../../app/api/v1/settings/messaging-channels/[id]/grants/route");
    const bad = await call(PUT, "PUT", "/x", { key: t.key, params: { id: c.id }, body: { memberIds: [foreign.userId] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("memberIds");
    expect((await call(PUT, "PUT", "/x", { key: t.key, params: { id: c.id }, body: { memberIds: [broker.userId, broker.userId] } })).status).toBe(400);
  });

  it("keeps a chat privacy list keyed by chat id in the body", async () => {
    const c = await makeWahaChannel(t, gw);
    const put = (chatId: unknown, state: unknown) => call(privacyRoute.PUT, "PUT", "/x", { key: t.key, params: { id: c.id }, body: { chatId, state } });
    expect((await put("5511911112222@c.us", "pending")).status).toBe(200);
    expect((await put("5511911112222@c.us", "whitelisted")).status).toBe(200);
    expect((await put("../../etc/passwd", "hidden")).status).toBe(200);
    expect((await put("x".repeat(10_000), "hidden")).status).toBe(400);
    expect((await put("5511911112222@c.us", "blocked")).status).toBe(400);
    const list = await call(privacyRoute.GET, "GET", "/x", { key: t.key, params: { id: c.id } });
    expect(list.body.items.map((i: any) => [i.chatId, i.state])).toEqual([
      ["../../etc/passwd", "hidden"],
      ["5511911112222@c.us", "whitelisted"],
    ]);
    expect((await call(privacyRoute.GET, "GET", "/x", { key: other.key, params: { id: c.id } })).status).toBe(404);
  });
});

// Issue 32: answers echoed the gateway's base URL, whose path can hold an instance id or token.
describe("the gateway address in answers", () => {
  it("is its host only (gatewayHost), never the base URL given on input", async () => {
    const secretPath = "/instances/tenant-7f3a-token-0c9d";
    const host = new URL(gw.url).host;
    const created = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: body({ baseUrl: `${gw.url}${secretPath}` }) });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const answers = [
      created.body,
      (await call(channelRoute.GET, "GET", "/x", { key: t.key, params: { id } })).body,
      (await call(channelsRoute.GET, "GET", "/x", { key: t.key })).body.items.find((c: any) => c.id === id),
      (await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id }, body: { baseUrl: `${gw.url}${secretPath}/v2` } })).body,
    ];
    for (const a of answers) {
      expect(a.gatewayHost).toBe(host);
      expect(a).not.toHaveProperty("baseUrl");
      expect(JSON.stringify(a)).not.toContain("tenant-7f3a-token");
    }
    // Still kept whole for the gateway calls.
    const [row] = await (await getDb()).select().from(messagingChannels).where(eq(messagingChannels.id, id));
    expect(row.baseUrl).toBe(`${gw.url}${secretPath}/v2`);
    await call(channelRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id } });
  });
});

describe("opt-outs", () => {
  it("adds phones normalised to E.164, lists and removes them, per tenant", async () => {
    const add = await call(optOutsRoute.POST, "POST", "/x", { key: t.key, body: { phone: "(11) 98765-4321", reason: "pediu para parar" } });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ phone: "+5511987654321", reason: "pediu para parar" });
    expect((await call(optOutsRoute.POST, "POST", "/x", { key: t.key, body: { phone: "+55 11 98765-4321" } })).body.reason).toBe("pediu para parar");
    expect((await call(optOutsRoute.POST, "POST", "/x", { key: t.key, body: { phone: "12" } })).status).toBe(400);
    expect((await call(optOutsRoute.GET, "GET", "/x", { key: t.key })).body.items).toHaveLength(1);
    expect((await call(optOutsRoute.GET, "GET", "/x", { key: other.key })).body.items).toHaveLength(0);
    expect((await call(optOutsRoute.DELETE, "DELETE", "/x", { key: other.key, query: { phone: "+5511987654321" } })).status).toBe(404);
    expect((await call(optOutsRoute.DELETE, "DELETE", "/x", { key: t.key, query: { phone: "11987654321" } })).status).toBe(204);
    expect((await call(optOutsRoute.DELETE, "DELETE", "/x", { key: t.key, query: { phone: "11987654321", extra: "1" } })).status).toBe(400);
    expect((await call(optOutsRoute.GET, "GET", "/x", { key: t.key })).body.items).toHaveLength(0);
  });
});
