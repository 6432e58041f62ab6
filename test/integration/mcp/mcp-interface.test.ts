/**
 * /api/mcp over real HTTP with the SDK's own client: the DNS-rebinding guard before anything, the
 * API key before any tool, stateless JSON answers, tool listing with schemas and annotations.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "../../../db/client";
import { apiKeys } from "../../../db/schema";
import * as listRoute from "../../../app/api/v1/messaging/conversations/route";
import { call } from "../../helpers/http";
import { startFakeWaha, type FakeWaha } from "../../fakes/waha-gateway";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { callTool, connectAgent, serveRoute } from "../../helpers/mcp";

let gw: FakeWaha;
let srv: Awaited<ReturnType<typeof serveRoute>>;
let t: TestTenant;
let broker: { userId: string; key: string };

beforeAll(async () => {
  gw = await startFakeWaha();
  srv = await serveRoute();
  t = await makeTenant();
  broker = await makeMember(t, "broker");
});
afterAll(async () => {
  await srv.close();
  await gw.close();
});

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
};
const post = (headers: Record<string, string>, body: unknown = initialize, url = srv.url) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });

/** fetch may not set Host: a raw request does, as a browser on a rebound name would send it. */
function postWithHost(host: string, key: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      srv.url,
      { method: "POST", headers: { host, authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || "null") }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(initialize));
  });
}

describe("before any tool runs", () => {
  it("refuses a missing, unknown or revoked key with a 401 JSON error", async () => {
    for (const headers of [{}, { authorization: "Bearer nope" }, { "x-api-key": "crm_wrong" }] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect((await res.json()).error.code).toBe("unauthorized");
    }
  });

  it("refuses a key revoked a moment ago, and the key of an inactive member", async () => {
    const m = await makeMember(t, "broker");
    expect((await post({ authorization: `Bearer ${m.key}` })).status).toBe(200);
    const db = await getDb();
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.memberId, m.userId));
    const res = await post({ authorization: `Bearer ${m.key}` });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("invalid_token");
    const inactive = await makeMember(t, "broker", "broad", { active: false });
    expect((await post({ "x-api-key": inactive.key })).status).toBe(401);
  });

  it("refuses a foreign Host or Origin (DNS rebinding) with 403, before authentication", async () => {
    for (const host of ["evil.example", "evil.example:3000", "localhost.evil.example", "127.0.0.1.nip.io"]) {
      const evilHost = await postWithHost(host, broker.key);
      expect(evilHost.status, host).toBe(403);
      expect(evilHost.body.error.code).toBe("forbidden_origin");
    }
    expect((await postWithHost(`localhost:${srv.port}`, broker.key)).status).toBe(200);
    const evilOrigin = await post({ authorization: `Bearer ${broker.key}`, origin: "http://evil.example" });
    expect(evilOrigin.status).toBe(403);
    const nullOrigin = await post({ origin: "null" });
    expect(nullOrigin.status).toBe(403);
    const ownOrigin = await post({ authorization: `Bearer ${broker.key}`, origin: `http://127.0.0.1:${srv.port}` });
    expect(ownOrigin.status).toBe(200);
  });

  it("answers JSON (not SSE) and keeps no session", async () => {
    const res = await post({ "x-api-key": broker.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = await res.json();
    expect(body.result.serverInfo.name).toMatch(/CRM/);
    expect(body.result.capabilities.tools).toBeDefined();
  });

  it("counts against the key's messaging budget, shared with REST, with RateLimit headers", async () => {
    const m = await makeMember(t, "broker");
    const res = await post({ "x-api-key": m.key });
    expect(res.headers.get("ratelimit-policy")).toBe('"messaging";q=1000;w=3600');
    const first = Number(/r=(\d+)/.exec(res.headers.get("ratelimit")!)![1]);
    const rest = await call(listRoute.GET, "GET", "/api/v1/messaging/conversations", { key: m.key });
    expect(Number(/r=(\d+)/.exec(rest.headers.get("ratelimit")!)![1])).toBe(first - 1);
  });

  it("GET and DELETE are 405 (no stream, no session to end); the client copes", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(srv.url, { method, headers: { accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("OPTIONS, POST");
    }
  });
});

describe("tools", () => {
  it("lists every tool with a description, a strict input schema and the MCP hints", async () => {
    const agent = await connectAgent(srv.url, broker.key);
    const { tools } = await agent.listTools();
    const byName = new Map(tools.map((x) => [x.name, x]));
    expect([...byName.keys()].sort()).toEqual(
      [
        "list_channels",
        "list_conversations",
        "get_conversation",
        "schedule_message",
        "cancel_scheduled_message",
        "list_scheduled_messages",
        "add_chat_label",
        "remove_chat_label",
        "create_label",
        "delete_label",
        "update_channel",
        "set_chat_privacy",
      ].sort(),
    );
    const sched = byName.get("schedule_message")!;
    expect(sched.inputSchema.required).toEqual(["channelId", "chatId", "sendAt", "idempotencyKey"]);
    expect(Object.keys(sched.inputSchema.properties!)).toEqual(["channelId", "chatId", "text", "templateId", "dealId", "sendAt", "idempotencyKey"]);
    expect(sched.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(sched.description).toMatch(/privacy_pending_approval/);
    for (const name of ["list_channels", "list_conversations", "get_conversation", "list_scheduled_messages"])
      expect(byName.get(name)!.annotations!.readOnlyHint, name).toBe(true);
    for (const name of ["remove_chat_label", "delete_label", "update_channel", "set_chat_privacy"])
      expect(byName.get(name)!.annotations!.destructiveHint, name).toBe(true);
    expect(byName.get("create_label")!.annotations!.idempotentHint).toBe(false);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe("object");
      expect((tool.inputSchema as any).additionalProperties, tool.name).toBe(false);
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe("boolean");
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe("boolean");
      expect(typeof tool.annotations?.idempotentHint, tool.name).toBe("boolean");
    }
    expect(byName.get("list_conversations")!.annotations!.readOnlyHint).toBe(true);
    expect(byName.get("cancel_scheduled_message")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.get("set_chat_privacy")!.inputSchema.required).toEqual(["channelId", "chatId", "state"]);
    await agent.close();
  });

  it("bad arguments are a tool error without running the tool", async () => {
    const agent = await connectAgent(srv.url, broker.key, { header: "x-api-key" });
    const r = await callTool(agent, "list_conversations", { limit: 1000 });
    expect(r.isError).toBe(true);
    const r2 = await callTool(agent, "list_conversations", { nope: 1 });
    expect(r2.isError).toBe(true);
    await agent.close();
  });

  it("list_conversations answers the REST envelope", async () => {
    const agent = await connectAgent(srv.url, broker.key);
    const r = await callTool(agent, "list_conversations", {});
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.policy.disabledReasons).toEqual(["no_accessible_channels"]);
    expect(r.content[0].text).toMatch(/0 conversation/);
    await agent.close();
  });
});
