import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runRoute from "../../../app/api/v1/agents/[id]/run/route";
import * as mChannelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as leadWebhook from "../../../app/api/webhooks/channels/[pathToken]/route";
import { getDb } from "../../../db/client";
import { agentChatPauses, inboundLeads, messagingOptOuts, tasks } from "../../../db/schema";
import { recordTokenUsage } from "../../../lib/ai/token-budget";
import { systemActor } from "../../../lib/context/actor";
import { processLead } from "../../../lib/leads/inbound/process-lead";
import { startFakeModel } from "../../fakes/model-server";
import { agentCast, createAgent, executionEvents, executionsOf, runAgents, setAi } from "../../helpers/agents";
import { makeTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";
import { makeWahaChannel, receive } from "../../helpers/messaging";

let c: Awaited<ReturnType<typeof agentCast>>;
const sentTo = (chatId: string) => c.gw.state.sent.filter((s) => s.chatId === chatId).map((s) => s.text);
const hasTool = (req: { messages: { role: string }[] }) => req.messages.some((m) => m.role === "tool");

/** A custom agent on a channel of its own, so each case has one voice per chat. */
async function agentOn(name: string, toolPolicy: Record<string, unknown>, over: Record<string, unknown> = {}) {
  const ch = await makeWahaChannel(c.t, c.gw, { name });
  const agent = await createAgent(c.t, {
    name,
    executionMode: "autonomous",
    audience: "all",
    instructions: "Atenda o cliente.",
    channelIds: [ch.id],
    triggers: ["inbound_message"],
    toolPolicy,
    ...over,
  });
  return { ch, agent };
}

beforeAll(async () => {
  c = await agentCast();
});
afterAll(() => c.close());

describe("guards", () => {
  it("a tool outside toolPolicy.allow is refused and recorded; the execution goes on", async () => {
    const { ch, agent } = await agentOn("Política", { allow: ["reply"] });
    c.model.setScript((req, i) => {
      if (!hasTool(req) && !req.messages.some((m) => m.role === "assistant" && m.tool_calls))
        return { toolCalls: [{ name: "create_visit_task", arguments: { dueAt: "2026-12-01T14:00:00-03:00" } }] };
      if (i >= 0 && !JSON.stringify(req.messages).includes("Visita amanhã")) return { toolCalls: [{ name: "reply", arguments: { text: "Visita amanhã?" } }] };
      return { text: "" };
    });
    const chat = "5511911110001@c.us";
    await receive(c.gw, ch, chat, "Quero visitar");
    await runAgents();
    const [e] = await executionsOf(agent.id);
    expect(e).toMatchObject({ status: "completed", outcome: "replied", toolNames: ["reply"] });
    const refused = (e.steps as { kind: string; tool?: string; status?: string; output?: unknown }[]).find((s) => s.tool === "create_visit_task");
    expect(refused).toMatchObject({ kind: "tool", status: "refused", output: { error: "tool_not_allowed" } });
    expect(c.model.requests.at(-3)?.toolNames).toEqual(["reply"]);
    expect(await (await getDb()).select().from(tasks).where(eq(tasks.tenantId, c.t.tenantId))).toEqual([]);
    expect(sentTo(chat)).toEqual(["Visita amanhã?"]);
  });

  it("maxSteps ends the execution as failed", async () => {
    const { ch, agent } = await agentOn("Passos", { allow: ["reply", "search_listings"], maxSteps: 3 });
    const before = c.model.requests.length;
    c.model.setScript(() => ({ toolCalls: [{ name: "search_listings", arguments: { query: "casa" } }] }));
    await receive(c.gw, ch, "5511911110002@c.us", "Procuro uma casa");
    await runAgents();
    const [e] = await executionsOf(agent.id);
    expect(e).toMatchObject({ status: "failed", errorMessage: "max_steps_exceeded" });
    expect(c.model.requests.length - before).toBe(3);
    const evs = await executionEvents([e.id]);
    expect(evs.map((x) => x.eventName)).toEqual(["agent.execution.started", "agent.execution.failed"]);
    expect(evs[1].data).toMatchObject({ errorMessage: "max_steps_exceeded", status: "failed" });
    expect(evs[1].data).not.toHaveProperty("toolNames");
  });

  it("the token limit ends the execution as failed", async () => {
    const { ch, agent } = await agentOn("Tokens", { allow: ["reply", "search_listings"], maxTokensPerExecution: 500 });
    c.model.setScript(() => ({ toolCalls: [{ name: "search_listings", arguments: {} }], usage: { inputTokens: 400, outputTokens: 200 } }));
    const before = c.model.requests.length;
    await receive(c.gw, ch, "5511911110003@c.us", "Oi");
    await runAgents();
    const [e] = await executionsOf(agent.id);
    expect(e).toMatchObject({ status: "failed", errorMessage: "token_limit_exceeded", inputTokens: 400, outputTokens: 200 });
    expect(c.model.requests.length - before).toBe(1);
  });

  for (const [name, reply, code] of [
    ["hangs past the step timeout", { hang: true as const }, "model_timeout"],
    ["answers garbage", { garbage: "<html>not json" }, "model_invalid_response"],
    ["answers an HTTP error", { httpError: 500 }, "model_unavailable"],
  ] as const) {
    it(`a model that ${name} fails the execution cleanly (${code})`, async () => {
      const { ch, agent } = await agentOn(`Falha ${code}`, { allow: ["reply"] });
      c.model.setScript(() => reply);
      const chat = `55119111100${10 + code.length}@c.us`;
      await receive(c.gw, ch, chat, "Olá");
      await runAgents(1200);
      const [e] = await executionsOf(agent.id);
      expect(e).toMatchObject({ status: "failed", errorMessage: code });
      expect(sentTo(chat)).toEqual([]);
      expect((await executionEvents([e.id])).map((x) => x.eventName)).toEqual(["agent.execution.started", "agent.execution.failed"]);
    });
  }

  it("an opt-out word puts the number on the opt-out list and ends the agent's work in that chat", async () => {
    const { ch, agent } = await agentOn("Opt-out", { allow: ["reply"] });
    c.model.setScript(() => ({ toolCalls: [{ name: "reply", arguments: { text: "Oi!" } }] }));
    const chat = "5511911110004@c.us";
    await receive(c.gw, ch, chat, "  Parar! ");
    const db = await getDb();
    const opted = await db
      .select()
      .from(messagingOptOuts)
      .where(and(eq(messagingOptOuts.tenantId, c.t.tenantId), eq(messagingOptOuts.phone, "+5511911110004")));
    expect(opted).toHaveLength(1);
    const [pause] = await db.select().from(agentChatPauses).where(eq(agentChatPauses.chatId, chat));
    expect(pause.reason).toBe("opt_out");
    expect(await executionsOf(agent.id)).toEqual([]);
    await receive(c.gw, ch, chat, "na verdade, tenho uma dúvida");
    expect(await executionsOf(agent.id)).toEqual([]);
    // Not even a member's manual run reaches an opted-out chat.
    const run = await call(runRoute.POST, "POST", "/x", { key: c.t.key, params: { id: agent.id }, body: { channelId: ch.id, chatId: chat } });
    expect(run.status).toBe(202);
    await runAgents();
    const [e] = await executionsOf(agent.id);
    expect(e).toMatchObject({ status: "skipped", outcome: "chat_paused_opt_out" });
    expect(await executionEvents([e.id])).toEqual([]);
    expect(sentTo(chat)).toEqual([]);
  });

  it("a manual run takes over a handed-over chat; bad run bodies are 400s, a paused agent a 409", async () => {
    const { ch, agent } = await agentOn("Manual", { allow: ["reply"] });
    const chat = "5511911110005@c.us";
    c.model.setScript((req) => (hasTool(req) ? { text: "" } : { toolCalls: [{ name: "reply", arguments: { text: "Retomando." } }] }));
    await receive(c.gw, ch, chat, "Oi", {});
    await receive(c.gw, ch, chat, "Sou eu, o corretor", { fromMe: true });
    await runAgents();
    const bad = [
      { channelId: c.channel.id, chatId: chat },
      { channelId: ch.id, chatId: "nope" },
      { dealId: "3fa85f64-5717-4562-b3fc-2c963f66afa6" },
      { channelId: ch.id },
    ];
    for (const body of bad)
      expect((await call(runRoute.POST, "POST", "/x", { key: c.t.key, params: { id: agent.id }, body })).status, JSON.stringify(body)).toBe(400);
    expect((await call(runRoute.POST, "POST", "/x", { key: c.ana.key, params: { id: agent.id }, body: { channelId: ch.id, chatId: chat } })).status).toBe(403);
    expect((await call(runRoute.POST, "POST", "/x", { key: c.other.key, params: { id: agent.id }, body: { channelId: ch.id, chatId: chat } })).status).toBe(
      404,
    );
    const ok = await call(runRoute.POST, "POST", "/x", { key: c.t.key, params: { id: agent.id }, body: { channelId: ch.id, chatId: chat } });
    expect(ok.status).toBe(202);
    expect(ok.body.execution).toMatchObject({ status: "queued", triggerType: "manual", chatId: chat });
    await runAgents();
    expect(sentTo(chat)).toEqual(["Retomando."]);
    const agentRoute = await import("../../../app/api/v1/agents/[id]/route");
    await call(agentRoute.PATCH, "PATCH", "/x", { key: c.t.key, params: { id: agent.id }, body: { status: "paused" } });
    const paused = await call(runRoute.POST, "POST", "/x", { key: c.t.key, params: { id: agent.id }, body: { channelId: ch.id, chatId: chat } });
    expect(paused.status).toBe(409);
    expect(paused.body.error.code).toBe("agent_paused");
  });
});

describe("what the model is told", () => {
  it("search results keep a private price from the model", async () => {
    const propertiesRoute = await import("../../../app/api/v1/real-estate/properties/route");
    const { propertyBody, saleListing } = await import("../../helpers/factories");
    const p = await call(propertiesRoute.POST, "POST", "/x", {
      key: c.t.key,
      body: propertyBody({ title: "Cobertura Sigilosa" }, [saleListing({ title: "Cobertura Sigilosa", price: "9870000.00", priceVisibility: "private" })]),
    });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    const { ch, agent } = await agentOn("Preço", { allow: ["reply", "search_listings"] });
    c.model.setScript((req) => (hasTool(req) ? { text: "" } : { toolCalls: [{ name: "search_listings", arguments: { query: "Cobertura Sigilosa" } }] }));
    const before = c.model.requests.length;
    await receive(c.gw, ch, "5511911110008@c.us", "Quanto custa a cobertura?");
    await runAgents();
    const told = JSON.stringify(c.model.requests[before + 1].messages);
    expect(told).toContain(p.body.listings[0].id);
    expect(told).not.toContain("9870000");
    const [e] = await executionsOf(agent.id);
    expect(e.status).toBe("completed");
  });
});

describe("budget", () => {
  it("an exhausted monthly budget fails new executions with budget_exhausted and no model call", async () => {
    const t2 = await makeTenant();
    const model = await startFakeModel();
    try {
      await setAi(t2, model.url, 100);
      const db = await getDb();
      await recordTokenUsage({ db, tenantId: t2.tenantId, actor: systemActor(t2.tenantId, "t") }, { inputTokens: 80, outputTokens: 20, purpose: "agent" });
      const ch = await makeWahaChannel(t2, c.gw, { name: "Budget" });
      const agent = await createAgent(t2, { templateId: "lead_qualifier", channelIds: [ch.id] });
      await receive(c.gw, ch, "5511911110006@c.us", "Olá");
      await runAgents();
      const [e] = await executionsOf(agent.id);
      expect(e).toMatchObject({ status: "failed", errorMessage: "budget_exhausted", inputTokens: 0 });
      expect(model.requests).toHaveLength(0);
      const evs = await executionEvents([e.id]);
      expect(evs.map((x) => x.eventName)).toEqual(["agent.execution.started", "agent.execution.failed"]);
      expect(evs[1]).toMatchObject({ tenantId: t2.tenantId, data: { errorMessage: "budget_exhausted" } });
    } finally {
      await model.close();
    }
  });
});

describe("a new lead", () => {
  it("starts a lead_created agent, which opens the WhatsApp chat to the lead's phone on its channel", async () => {
    const ch = await makeWahaChannel(c.t, c.gw, { name: "Leads" });
    const agent = await createAgent(c.t, { templateId: "lead_qualifier", channelIds: [ch.id], triggers: ["lead_created"], name: "Primeiro contato" });
    const mc = await call(mChannelsRoute.POST, "POST", "/x", { key: c.t.key, body: { name: "Portal", kind: "portal" } });
    expect(mc.status).toBe(201);
    const req = new Request(`http://localhost/api/webhooks/channels/${mc.body.pathToken}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Marta Lima", phone: "(11) 91111-0007", message: "Tenho interesse" }),
    });
    expect((await send(leadWebhook.POST, req, { pathToken: mc.body.pathToken })).status).toBe(202);
    const db = await getDb();
    const [lead] = await db.select().from(inboundLeads).where(eq(inboundLeads.channelId, mc.body.id));
    if (lead.status !== "processed") await processLead(db, lead.id);
    const [queued] = await executionsOf(agent.id);
    expect(queued).toMatchObject({
      status: "queued",
      triggerType: "lead_created",
      triggerId: `lead:${lead.id}`,
      channelId: ch.id,
      chatId: "5511911110007@c.us",
    });
    expect(queued.dealId).toBeTruthy();
    const seen: string[] = [];
    c.model.setScript((r) => {
      seen.push(JSON.stringify(r.messages));
      return hasTool(r) ? { text: "" } : { toolCalls: [{ name: "reply", arguments: { text: "Olá Marta! Recebemos seu contato." } }] };
    });
    await runAgents();
    expect(sentTo("5511911110007@c.us")).toEqual(["Olá Marta! Recebemos seu contato."]);
    expect(seen[0]).toContain("novo lead");
    expect(seen[0]).toContain("Marta");
    const [e] = await executionsOf(agent.id);
    expect(e).toMatchObject({ status: "completed", outcome: "replied", dealId: queued.dealId });
  });
});
