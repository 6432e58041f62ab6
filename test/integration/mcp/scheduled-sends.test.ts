/**
 * schedule_message over /api/mcp with the SDK client, and firing: the REST gates at schedule time
 * (tool errors with the REST ack's status and reason) and again at fire time (`blocked`), exactly one
 * send per schedule with two workers, a crash or a restart, cancellation racing the send, the
 * sleeping Inngest function, two tenants.
 */
import { InngestTestEngine } from "@inngest/test";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as scheduledRoute from "../../../app/api/v1/messaging/scheduled/route";
import { getDb } from "../../../db/client";
import { apiKeys, events, messagingOptOuts, messagingSentMessages, messagingScheduledMessages as S } from "../../../db/schema";
import { fireScheduledMessage } from "../../../inngest/functions/scheduled-message";
import { startEmbeddedRunner } from "../../../lib/jobs/embedded-runner";
import { logger } from "../../../lib/log/logger";
import { claimDue, fireDue } from "../../../lib/messaging/scheduled/fire";
import { sendMessage } from "../../../lib/messaging/send/send-message";
import { memberCtx } from "../../../lib/context/verb-context";
import { authenticateApiKey } from "../../../lib/auth/authenticate-key";
import type { FakeWaha } from "../../fakes/waha-gateway";
import { makeMember, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { callTool, closeMcpCast, connectAgent, connectAgents, mcpCast, type Agent, type RouteServer } from "../../helpers/mcp";
import { makeWahaChannel, receive, setPrivacy, type TestChannel, type TestMember } from "../../helpers/messaging";

let gw: FakeWaha;
let srv: RouteServer;
let t: TestTenant;
let other: TestTenant;
let ana: TestMember;
let bruno: TestMember;
let ch: TestChannel;
let priv: TestChannel;
let otherCh: TestChannel;
let agent: Agent;
let brunoAgent: Agent;
let otherAgent: Agent;

const CHAT = "5511987654321@c.us";
const log = logger();
let n = 0;
const key = () => `key-${Date.now()}-${++n}`;
const soon = (ms = 0) => new Date(Date.now() + ms).toISOString();
const sentTo = (chatId: string) => gw.state.sent.filter((s) => s.chatId === chatId).map((s) => s.text);
const row = async (id: string) => (await (await getDb()).select().from(S).where(eq(S.id, id)))[0];
const schedule = (a: Agent, args: Record<string, unknown>) =>
  callTool(a, "schedule_message", { channelId: ch.id, chatId: CHAT, idempotencyKey: key(), sendAt: soon(), ...args });

beforeAll(async () => {
  ({ gw, srv, t, other, ana, bruno } = await mcpCast());
  ch = await makeWahaChannel(t, gw, { name: "WhatsApp Ana", ownerId: ana.userId });
  priv = await makeWahaChannel(t, gw, { name: "Privado", ownerId: ana.userId, privacyMode: "whitelist" });
  otherCh = await makeWahaChannel(other, gw, { name: "Outra", ownerId: other.ownerId });
  await receive(gw, ch, CHAT, "Oi, quero visitar", { pushName: "Cliente" });
  for (const c of ["5521900000001@c.us", "5521900000002@c.us", "5521900000003@c.us"]) await receive(gw, priv, c, "oi");
  await setPrivacy(t, priv.id, "5521900000001@c.us", "whitelisted");
  await setPrivacy(t, priv.id, "5521900000002@c.us", "pending");
  await receive(gw, otherCh, "5531900000001@c.us", "outro tenant");
  [agent, brunoAgent, otherAgent] = await connectAgents(srv.url, [ana.key, bruno.key, other.key]);
}, 120_000);
afterAll(() => closeMcpCast([agent, brunoAgent, otherAgent], srv, gw));

describe("schedule_message", () => {
  it("stores the message and answers the ack `queued` with the schedule; a retry with the key answers it again", async () => {
    const k = key();
    const sendAt = soon(3600_000);
    const r = await schedule(agent, { text: "Lembrete da visita amanhã às 10h", sendAt, idempotencyKey: k });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      policy: {
        principal: "tenant_member",
        mutates: true,
        riskTier: "proactive",
        approval: "never",
        idempotencyKeyed: true,
        enforcedGates: ["channel_access_grant", "chat_privacy_mode", "outreach_safety", "send_idempotency"],
      },
      status: "queued",
      messageId: null,
      reason: null,
      idempotent: false,
      schedule: {
        channelId: ch.id,
        chatId: CHAT,
        status: "scheduled",
        sendAt: new Date(sendAt).toISOString(),
        content: { kind: "text", text: "Lembrete da visita amanhã às 10h" },
        createdById: ana.userId,
      },
    });
    const again = await schedule(agent, { text: "Lembrete da visita amanhã às 10h", sendAt, idempotencyKey: k });
    expect(again.structuredContent).toMatchObject({ status: "queued", idempotent: true, schedule: { id: r.structuredContent.schedule.id } });
    const reused = await schedule(agent, { text: "Outro texto", sendAt, idempotencyKey: k });
    expect(reused.isError).toBe(true);
    expect(reused.structuredContent.error.code).toBe("idempotency_key_reused");
    const rest = await call(scheduledRoute.GET, "GET", "/x", { key: ana.key, query: { status: "scheduled" } });
    expect(rest.body.scheduled.filter((s: any) => s.idempotencyKey === k)).toHaveLength(1);
    expect(sentTo(CHAT)).toEqual([]);
  });

  it("refuses bad arguments with the field named, storing nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(S)).length;
    for (const [args, field] of [
      [{ text: "x", sendAt: soon(-3600_000) }, "sendAt"],
      [{ text: "x", sendAt: soon(31 * 86_400_000) }, "sendAt"],
      [{ text: "x", sendAt: "amanhã" }, "sendAt"],
      [{ text: "x", templateId: "00000000-0000-4000-8000-000000000000" }, "text"],
      [{}, "text"],
    ] as const) {
      const r = await schedule(agent, args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.structuredContent.error.code).toBe("invalid_request");
      expect(r.structuredContent.error.message).toContain(field);
    }
    const short = await callTool(agent, "schedule_message", { channelId: ch.id, chatId: CHAT, text: "x", sendAt: soon(), idempotencyKey: "short" });
    expect(short.isError).toBe(true);
    expect((await db.select().from(S)).length).toBe(before);
  });

  it("each gate refuses as the REST ack does, as a tool error, and nothing is stored", async () => {
    const db = await getDb();
    await db.insert(messagingOptOuts).values({ tenantId: t.tenantId, phone: "+5511911112222" });
    await receive(gw, ch, "5511911112222@c.us", "não me mande mais nada");
    const before = (await db.select().from(S)).length;
    const cases: [Agent, Record<string, unknown>, string, string][] = [
      [brunoAgent, {}, "forbidden", "channel_forbidden"],
      [otherAgent, {}, "forbidden", "not_found_or_inaccessible"],
      [agent, { channelId: otherCh.id, chatId: "5531900000001@c.us" }, "forbidden", "not_found_or_inaccessible"],
      [agent, { channelId: priv.id, chatId: "5521900000002@c.us" }, "blocked", "privacy_pending_approval"],
      [agent, { channelId: priv.id, chatId: "5521900000003@c.us" }, "blocked", "privacy_denied"],
      [agent, { chatId: "5511911112222@c.us" }, "blocked", "opt_out"],
      [agent, { chatId: "123456789012@lid" }, "rejected", "not_found_or_inaccessible"],
    ];
    for (const [who, args, status, reason] of cases) {
      const r = await schedule(who, { text: "Oferta imperdível", ...args });
      expect(r.isError, reason).toBe(true);
      expect(r.structuredContent, reason).toMatchObject({ status, reason, messageId: null, idempotent: false, policy: { riskTier: "proactive" } });
      expect(r.content[0].text).toContain(reason);
    }
    const tpl = await schedule(agent, { templateId: "00000000-0000-4000-8000-000000000000" });
    expect(tpl.structuredContent).toMatchObject({ status: "rejected", reason: "channel_send_unsupported" });
    expect((await db.select().from(S)).length).toBe(before);
    const ok = await schedule(agent, { channelId: priv.id, chatId: "5521900000001@c.us", text: "liberado", sendAt: soon(3600_000) });
    expect(ok.structuredContent.status).toBe("queued");
  });
});

describe("firing", () => {
  it("sends when due through the send verb: `sent` with the messageId of channel.message.sent, authored by the scheduler", async () => {
    const r = await schedule(agent, { text: "Bom dia! Confirmado para hoje." });
    const id = r.structuredContent.schedule.id;
    await fireDue(await getDb(), log);
    const s = await row(id);
    expect(s).toMatchObject({ status: "sent", reason: null, attempts: 1 });
    expect(s.messageId).toBeTruthy();
    expect(sentTo(CHAT)).toContain("Bom dia! Confirmado para hoje.");
    const evts = await (await getDb())
      .select()
      .from(events)
      .where(and(eq(events.entityId, s.messageId!), eq(events.eventName, "channel.message.sent")));
    expect(evts).toHaveLength(1);
    expect(evts[0].data).toMatchObject({ channelId: ch.id, chatId: CHAT, direction: "outbound" });
    const [authored] = await (await getDb()).select().from(messagingSentMessages).where(eq(messagingSentMessages.providerMessageId, s.messageId!));
    expect(authored.authorId).toBe(ana.userId);
    const listed = await callTool(agent, "list_scheduled_messages", { status: ["sent"] });
    expect(listed.structuredContent.scheduled.find((x: any) => x.id === id)).toMatchObject({
      status: "sent",
      messageId: s.messageId,
      firedAt: expect.any(String),
    });
    // Fired once: another cycle finds nothing.
    await fireDue(await getDb(), log);
    expect(sentTo(CHAT).filter((x) => x === "Bom dia! Confirmado para hoje.")).toHaveLength(1);
  });

  it("re-checks the gates at fire time: a chat hidden, an opt-out or a revoked key since ends `blocked` with the reason", async () => {
    const db = await getDb();
    const chatB = "5511933334444@c.us";
    const chatC = "5511955556666@c.us";
    await receive(gw, ch, chatB, "oi");
    await receive(gw, ch, chatC, "oi");
    const hidden = (await schedule(agent, { text: "vai ser bloqueada", sendAt: soon(500) })).structuredContent.schedule.id;
    const optedOut = (await schedule(agent, { chatId: chatB, text: "também", sendAt: soon(500) })).structuredContent.schedule.id;
    const carol = await makeMember(t, "broker");
    const { grant } = await import("../../helpers/messaging");
    await grant(t, ch.id, [carol.userId]);
    const carolAgent = await connectAgent(srv.url, carol.key);
    const revoked = (await schedule(carolAgent, { chatId: chatC, text: "chave revogada", sendAt: soon(500) })).structuredContent.schedule.id;
    await carolAgent.close();
    await setPrivacy(t, ch.id, CHAT, "hidden");
    await db.insert(messagingOptOuts).values({ tenantId: t.tenantId, phone: "+5511933334444" });
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.memberId, carol.userId));
    const sentBefore = gw.state.sent.length;
    await fireDue(db, log, { now: new Date(Date.now() + 1000) });
    expect(await row(hidden)).toMatchObject({ status: "blocked", reason: "privacy_denied", messageId: null });
    expect(await row(optedOut)).toMatchObject({ status: "blocked", reason: "opt_out" });
    expect(await row(revoked)).toMatchObject({ status: "blocked", reason: "api_key_revoked" });
    expect(gw.state.sent.length).toBe(sentBefore);
    await setPrivacy(t, ch.id, CHAT, "whitelisted");
  });

  it("a gateway that refuses ends `failed` with the ack's reason", async () => {
    const id = (await schedule(agent, { text: "gateway fora" })).structuredContent.schedule.id;
    gw.state.switches.failStatus = 502;
    try {
      await fireDue(await getDb(), log);
    } finally {
      gw.state.switches.failStatus = 0;
    }
    expect(await row(id)).toMatchObject({ status: "failed", reason: "channel_unreachable" });
  });

  it("two workers at once send each schedule exactly once", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await schedule(agent, { text: `lote ${i}` })).structuredContent.schedule.id);
    const db = await getDb();
    await Promise.all([fireDue(db, log, { batch: 2 }), fireDue(db, log, { batch: 2 })]);
    for (let i = 0; i < 6; i++)
      expect(
        sentTo(CHAT).filter((x) => x === `lote ${i}`),
        `lote ${i}`,
      ).toHaveLength(1);
    for (const id of ids) expect((await row(id)).status).toBe("sent");
  });

  it("cancellation racing the send: either cancelled and never sent, or sent and the cancel refused", async () => {
    gw.state.switches.delayMs = 150;
    try {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await schedule(agent, { text: `corrida ${i}` })).structuredContent.schedule.id);
      const db = await getDb();
      const cancels = ids.map(async (id, i) => {
        await new Promise((r) => setTimeout(r, i * 60));
        return callTool(agent, "cancel_scheduled_message", { scheduleId: id });
      });
      const [, ...answers] = await Promise.all([fireDue(db, log, { batch: 1 }), ...cancels]);
      let cancelled = 0;
      for (let i = 0; i < ids.length; i++) {
        const s = await row(ids[i]);
        const sent = sentTo(CHAT).filter((x) => x === `corrida ${i}`).length;
        if (s.status === "cancelled") {
          cancelled++;
          expect(sent, `corrida ${i}`).toBe(0);
          expect(answers[i].isError).toBeFalsy();
        } else {
          expect(s.status).toBe("sent");
          expect(sent, `corrida ${i}`).toBe(1);
          expect(answers[i].isError).toBe(true);
          expect(["schedule_sending", "schedule_not_cancellable"]).toContain(answers[i].structuredContent.error.code);
        }
      }
      // With the first send in flight when the first cancel arrives, both outcomes happen.
      expect(cancelled).toBeGreaterThan(0);
      expect(cancelled).toBeLessThan(ids.length);
      await fireDue(db, log);
      for (let i = 0; i < ids.length; i++) expect(sentTo(CHAT).filter((x) => x === `corrida ${i}`).length).toBeLessThanOrEqual(1);
    } finally {
      gw.state.switches.delayMs = 0;
    }
  });
});

describe("crash and restart", () => {
  it("a schedule claimed by a worker that died is taken over after the lease, and sent once", async () => {
    const db = await getDb();
    const id = (await schedule(agent, { text: "depois da queda" })).structuredContent.schedule.id;
    const [claimed] = await claimDue(db, { limit: 1, onlyId: id });
    expect(claimed.id).toBe(id); // this worker dies here, before sending
    await fireDue(db, log);
    expect((await row(id)).status).toBe("scheduled"); // the lease still holds
    await fireDue(db, log, { now: new Date(Date.now() + 3 * 60_000) });
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
    expect(sentTo(CHAT).filter((x) => x === "depois da queda")).toHaveLength(1);
  });

  it("a worker that died after the gateway took the message: the next claim answers the first send, no second copy", async () => {
    const db = await getDb();
    const id = (await schedule(agent, { text: "enviada antes da queda" })).structuredContent.schedule.id;
    const [claimed] = await claimDue(db, { limit: 1, onlyId: id });
    const actor = await authenticateApiKey(db, ana.key);
    const first = await sendMessage(memberCtx(db, actor), {
      mode: "send",
      channelId: ch.id,
      chatId: CHAT,
      content: { kind: "text", text: claimed.text! },
      idempotencyKey: `scheduled:${id}`,
    });
    expect(first.status).toBe("sent"); // ...and the worker died before recording it
    await fireDue(db, log, { now: new Date(Date.now() + 3 * 60_000) });
    expect(await row(id)).toMatchObject({ status: "sent", messageId: first.messageId });
    expect(sentTo(CHAT).filter((x) => x === "enviada antes da queda")).toHaveLength(1);
  });

  it("survives a restart of the embedded runner: stopped before it was due, sent once by the next runner", async () => {
    const id = (await schedule(agent, { text: "após reinício", sendAt: soon(1500) })).structuredContent.schedule.id;
    let runner = startEmbeddedRunner();
    await new Promise((r) => setTimeout(r, 300));
    await runner.stop();
    await new Promise((r) => setTimeout(r, 1600));
    expect((await row(id)).status).toBe("scheduled");
    runner = startEmbeddedRunner();
    try {
      for (let i = 0; i < 100 && (await row(id)).status === "scheduled"; i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await runner.stop();
    }
    expect((await row(id)).status).toBe("sent");
    expect(sentTo(CHAT).filter((x) => x === "após reinício")).toHaveLength(1);
  });

  it("the Inngest function sleeps until sendAt, then fires that schedule (cancellable by event)", async () => {
    const sendAt = soon(400);
    const id = (await schedule(agent, { text: "via Inngest", sendAt })).structuredContent.schedule.id;
    await new Promise((r) => setTimeout(r, 500));
    const engine = new InngestTestEngine({
      function: fireScheduledMessage,
      events: [{ name: "crm/messaging.message-scheduled", data: { tenantId: t.tenantId, scheduleId: id, sendAt: new Date(sendAt).toISOString() } }],
      steps: [{ id: "wait-until-send-at", handler: () => null }],
    });
    const { result, error, ctx } = await engine.execute();
    expect(error).toBeUndefined();
    expect(result).toBe("sent");
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("wait-until-send-at", new Date(sendAt).toISOString());
    expect(sentTo(CHAT).filter((x) => x === "via Inngest")).toHaveLength(1);
    const opts = (fireScheduledMessage as unknown as { opts: { cancelOn: unknown[] } }).opts;
    expect(opts.cancelOn).toEqual([{ event: "crm/messaging.schedule-cancelled", if: "async.data.scheduleId == event.data.scheduleId" }]);
    // Woken after a cancellation whose event was lost: the row decides, nothing is sent.
    const cancelledId = (await schedule(agent, { text: "cancelada", sendAt: soon(3600_000) })).structuredContent.schedule.id;
    await callTool(agent, "cancel_scheduled_message", { scheduleId: cancelledId });
    const woke = new InngestTestEngine({
      function: fireScheduledMessage,
      events: [{ name: "crm/messaging.message-scheduled", data: { tenantId: t.tenantId, scheduleId: cancelledId, sendAt: new Date().toISOString() } }],
      steps: [{ id: "wait-until-send-at", handler: () => null }],
    });
    expect((await woke.execute()).result).toBe("not_due");
    expect(sentTo(CHAT)).not.toContain("cancelada");
  });
});

describe("two tenants", () => {
  it("no tool reaches another tenant's schedule", async () => {
    const id = (await schedule(agent, { text: "só da Ana", sendAt: soon(3600_000) })).structuredContent.schedule.id;
    const r = await callTool(otherAgent, "cancel_scheduled_message", { scheduleId: id });
    expect(r.structuredContent.error.code).toBe("not_found");
    expect((await callTool(otherAgent, "list_scheduled_messages")).structuredContent.scheduled).toEqual([]);
    expect((await call(scheduledRoute.GET, "GET", "/x", { key: other.key })).body.scheduled).toEqual([]);
    expect((await row(id)).status).toBe("scheduled");
  });
});
