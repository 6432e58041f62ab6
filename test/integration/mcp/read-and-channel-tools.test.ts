/**
 * Read tools (channels, conversations, schedules) answer the REST envelopes and apply the same
 * grants; channel tools keep the REST role rule plus the grant gate; two tenants never meet.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as channelsRoute from "../../../app/api/v1/messaging/channels/route";
import * as listRoute from "../../../app/api/v1/messaging/conversations/route";
import * as scheduledRoute from "../../../app/api/v1/messaging/scheduled/route";
import { getDb } from "../../../db/client";
import { apiKeys, messagingScheduledMessages } from "../../../db/schema";
import type { FakeWaha } from "../../fakes/waha-gateway";
import { makeMember, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { callTool, closeMcpCast, connectAgent, connectAgents, mcpCast, type Agent, type RouteServer } from "../../helpers/mcp";
import { grant, makeWahaChannel, receive, setPrivacy, type TestChannel, type TestMember } from "../../helpers/messaging";
import { eq } from "drizzle-orm";

let gw: FakeWaha;
let srv: RouteServer;
let t: TestTenant;
let other: TestTenant;
let ana: TestMember;
let bruno: TestMember;
let admin: TestMember;
let anaCh: TestChannel;
let otherCh: TestChannel;
let agentAna: Agent;
let agentBruno: Agent;
let agentAdmin: Agent;
let agentOther: Agent;

const CHAT = "5511987650001@c.us";
const PENDING = "5511987650002@c.us";

async function insertSchedule(
  tenantId: string,
  channelId: string,
  chatId: string,
  createdById: string,
  keyPlain: string,
  over: Partial<typeof messagingScheduledMessages.$inferInsert> = {},
) {
  const db = await getDb();
  const [k] = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.memberId, createdById)).limit(1);
  const [r] = await db
    .insert(messagingScheduledMessages)
    .values({
      tenantId,
      channelId,
      chatId,
      text: "Olá, tudo bem?",
      sendAt: new Date(Date.now() + 3600_000),
      createdById,
      apiKeyId: k.id,
      idempotencyKey: `k-${randomUUID()}`,
      ...over,
    })
    .returning();
  void keyPlain;
  return r;
}

beforeAll(async () => {
  ({ gw, srv, t, other, ana, bruno } = await mcpCast());
  admin = await makeMember(t, "admin");
  anaCh = await makeWahaChannel(t, gw, { name: "WhatsApp Ana", ownerId: ana.userId, privacyMode: "whitelist" });
  await grant(t, anaCh.id, [admin.userId]);
  otherCh = await makeWahaChannel(other, gw, { name: "Outra", ownerId: other.ownerId });
  await receive(gw, anaCh, CHAT, "Quero visitar o apartamento", { pushName: "Cliente Um" });
  await receive(gw, anaCh, PENDING, "segredo", { pushName: "Pendente" });
  await setPrivacy(t, anaCh.id, CHAT, "whitelisted");
  await setPrivacy(t, anaCh.id, PENDING, "pending");
  await receive(gw, otherCh, "5531900000001@c.us", "de outro tenant");
  [agentAna, agentBruno, agentAdmin, agentOther] = await connectAgents(srv.url, [ana.key, bruno.key, { key: admin.key, header: "x-api-key" }, other.key]);
}, 120_000);
afterAll(() => closeMcpCast([agentAna, agentBruno, agentAdmin, agentOther], srv, gw));

describe("list_channels and list_conversations", () => {
  it("answer what REST answers for the same key", async () => {
    const tool = await callTool(agentAna, "list_conversations", { limit: 10 });
    const rest = await call(listRoute.GET, "GET", "/api/v1/messaging/conversations", { key: ana.key, query: { limit: "10" } });
    expect(tool.isError).toBeFalsy();
    expect(tool.structuredContent).toEqual(rest.body);
    expect(tool.structuredContent.conversations.map((c: any) => c.key.chatId).sort()).toEqual([CHAT, PENDING].sort());

    const ch = await callTool(agentAna, "list_channels");
    const restCh = await call(channelsRoute.GET, "GET", "/api/v1/messaging/channels", { key: ana.key });
    expect(restCh.status).toBe(200);
    expect(ch.structuredContent).toEqual(restCh.body);
    expect(ch.structuredContent.channels).toEqual([
      {
        id: anaCh.id,
        name: "WhatsApp Ana",
        transport: "whatsapp",
        connectionState: "connected",
        privacyEnabled: true,
        owned: true,
        capabilities: { history: true, templates: false, labels: true },
      },
    ]);
    expect(JSON.stringify(ch.structuredContent)).not.toMatch(/127\.0\.0\.1|waha-test-key|default/);
  });

  it("a member without grant sees nothing; another tenant sees only its own", async () => {
    const b = await callTool(agentBruno, "list_channels");
    expect(b.structuredContent.channels).toEqual([]);
    expect(b.structuredContent.policy.disabledReasons).toEqual(["no_accessible_channels"]);
    const o = await callTool(agentOther, "list_conversations");
    expect(o.structuredContent.conversations.map((c: any) => c.key.channelId)).toEqual([otherCh.id]);
  });

  it("get_conversation reads the live history, and rejects without a grant", async () => {
    const ok = await callTool(agentAna, "get_conversation", { channelId: anaCh.id, chatId: CHAT });
    expect(ok.structuredContent.history.messages[0].text).toBe("Quero visitar o apartamento");
    const no = await callTool(agentBruno, "get_conversation", { channelId: anaCh.id, chatId: CHAT });
    expect(no.structuredContent).toMatchObject({ conversation: null, rejection: "channel_forbidden" });
    const foreign = await callTool(agentOther, "get_conversation", { channelId: anaCh.id, chatId: CHAT });
    expect(foreign.structuredContent).toMatchObject({ conversation: null, rejection: "not_found_or_inaccessible" });
  });
});

describe("list_scheduled_messages, cancel_scheduled_message and GET /messaging/scheduled", () => {
  it("list what the member's channels hold, as REST does; a pending chat's text is withheld", async () => {
    const s1 = await insertSchedule(t.tenantId, anaCh.id, CHAT, ana.userId, ana.key);
    const s2 = await insertSchedule(t.tenantId, anaCh.id, PENDING, ana.userId, ana.key, { sendAt: new Date(Date.now() + 7200_000) });
    await insertSchedule(other.tenantId, otherCh.id, "5531900000001@c.us", other.ownerId, other.key);
    const tool = await callTool(agentAna, "list_scheduled_messages", {});
    const rest = await call(scheduledRoute.GET, "GET", "/api/v1/messaging/scheduled", { key: ana.key });
    expect(rest.status).toBe(200);
    expect(tool.structuredContent).toEqual(rest.body);
    expect(rest.body.scheduled.map((s: any) => s.id)).toEqual([s1.id, s2.id]);
    expect(rest.body.scheduled[0].content).toEqual({ kind: "text", text: "Olá, tudo bem?" });
    expect(rest.body.scheduled[1].content).toEqual({ kind: "text", text: null });
    expect(rest.body.scheduled[0]).toMatchObject({ status: "scheduled", handle: expect.stringMatching(/0001$/), reason: null, messageId: null });
    expect((await callTool(agentBruno, "list_scheduled_messages")).structuredContent.scheduled).toEqual([]);
    expect((await callTool(agentOther, "list_scheduled_messages")).structuredContent.scheduled).toHaveLength(1);
    const paged = await call(scheduledRoute.GET, "GET", "/api/v1/messaging/scheduled", { key: ana.key, query: { limit: "1" } });
    expect(paged.body.page).toMatchObject({ returned: 1, hasMore: true });
    const next = await call(scheduledRoute.GET, "GET", "/api/v1/messaging/scheduled", {
      key: ana.key,
      query: { limit: "1", cursor: paged.body.page.nextCursor },
    });
    expect(next.body.scheduled.map((s: any) => s.id)).toEqual([s2.id]);
    const bad = await call(scheduledRoute.GET, "GET", "/api/v1/messaging/scheduled", { key: ana.key, query: { status: "scheduled,sent" } });
    expect(bad.status).toBe(400);
    const unknown = await call(scheduledRoute.GET, "GET", "/api/v1/messaging/scheduled", { key: ana.key, query: { utm_source: "x" } });
    expect(unknown.status).toBe(400);
  });

  it("cancels once; a second cancel is idempotent; others cannot; a claimed one is being sent", async () => {
    const s = await insertSchedule(t.tenantId, anaCh.id, CHAT, ana.userId, ana.key);
    const foreign = await callTool(agentOther, "cancel_scheduled_message", { scheduleId: s.id });
    expect(foreign.isError).toBe(true);
    expect(foreign.structuredContent.error.code).toBe("not_found");
    const noGrant = await callTool(agentBruno, "cancel_scheduled_message", { scheduleId: s.id });
    expect(noGrant.structuredContent.error.code).toBe("not_found");
    const first = await callTool(agentAna, "cancel_scheduled_message", { scheduleId: s.id });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ idempotent: false, schedule: { id: s.id, status: "cancelled", cancelledAt: expect.any(String) } });
    const again = await callTool(agentAna, "cancel_scheduled_message", { scheduleId: s.id });
    expect(again.structuredContent).toMatchObject({ idempotent: true, schedule: { status: "cancelled" } });

    const claimed = await insertSchedule(t.tenantId, anaCh.id, CHAT, ana.userId, ana.key, { claimedAt: new Date(), attempts: 1 });
    const busy = await callTool(agentAna, "cancel_scheduled_message", { scheduleId: claimed.id });
    expect(busy.structuredContent.error.code).toBe("schedule_sending");
    const sent = await insertSchedule(t.tenantId, anaCh.id, CHAT, ana.userId, ana.key, { status: "sent" });
    expect((await callTool(agentAna, "cancel_scheduled_message", { scheduleId: sent.id })).structuredContent.error.code).toBe("schedule_not_cancellable");
    // A broker cancels only its own; the admin (broad, with a grant) may cancel any on the channel.
    const adminsOwn = await insertSchedule(t.tenantId, anaCh.id, CHAT, admin.userId, admin.key);
    expect((await callTool(agentAna, "cancel_scheduled_message", { scheduleId: adminsOwn.id })).structuredContent.error.code).toBe("schedule_forbidden");
    const anas = await insertSchedule(t.tenantId, anaCh.id, CHAT, ana.userId, ana.key);
    expect((await callTool(agentAdmin, "cancel_scheduled_message", { scheduleId: anas.id })).structuredContent.schedule.status).toBe("cancelled");
  });
});

describe("update_channel and set_chat_privacy", () => {
  it("need an owner/admin broad key (as REST settings) and a grant on the channel", async () => {
    const broker = await callTool(agentAna, "update_channel", { channelId: anaCh.id, name: "Novo nome" });
    expect(broker.isError).toBe(true);
    expect(broker.structuredContent.error.code).toBe("forbidden");
    const owner = await connectAgent(srv.url, t.key); // tenant owner, no grant on Ana's channel
    const noGrant = await callTool(owner, "set_chat_privacy", { channelId: anaCh.id, chatId: PENDING, state: "whitelisted" });
    expect(noGrant.structuredContent.error.code).toBe("channel_forbidden");
    await owner.close();
    const foreign = await callTool(agentOther, "update_channel", { channelId: anaCh.id, name: "x" });
    expect(foreign.structuredContent.error.code).toBe("not_found_or_inaccessible");
    const none = await callTool(agentAdmin, "update_channel", { channelId: anaCh.id });
    expect(none.isError).toBe(true);
  });

  it("the admin with a grant renames, switches privacy and approves a chat", async () => {
    const r = await callTool(agentAdmin, "update_channel", { channelId: anaCh.id, name: "WhatsApp Ana (vendas)", privacyMode: "off" });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.channel).toEqual({
      id: anaCh.id,
      name: "WhatsApp Ana (vendas)",
      transport: "whatsapp",
      connectionState: "connected",
      privacyEnabled: false,
    });
    await callTool(agentAdmin, "update_channel", { channelId: anaCh.id, privacyMode: "whitelist" });
    const p = await callTool(agentAdmin, "set_chat_privacy", { channelId: anaCh.id, chatId: PENDING, state: "whitelisted" });
    expect(p.structuredContent).toMatchObject({ channelId: anaCh.id, chatId: PENDING, state: "whitelisted" });
    const list = await callTool(agentAna, "list_conversations", {});
    const item = list.structuredContent.conversations.find((c: any) => c.key.chatId === PENDING);
    expect(item.privacy.state).toBe("whitelisted");
    expect(item.lastActivity.preview).toBe("segredo");
  });
});
