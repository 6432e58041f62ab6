import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as approveRoute from "../../../app/api/v1/agents/approvals/[id]/approve/route";
import * as rejectRoute from "../../../app/api/v1/agents/approvals/[id]/reject/route";
import * as approvalsRoute from "../../../app/api/v1/agents/approvals/route";
import * as executionRoute from "../../../app/api/v1/agents/executions/[executionId]/route";
import * as executionsRoute from "../../../app/api/v1/agents/[id]/executions/route";
import * as dealRoute from "../../../app/api/v1/crm/deals/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { agentChatPauses, contacts, dealContacts, deals, messagingConversations } from "../../../db/schema";
import { tokensUsedThisMonth } from "../../../lib/ai/token-budget";
import { systemActor } from "../../../lib/context/actor";
import { lastUserText } from "../../fakes/model-server";
import { EXECUTION_EVENT_KEYS, agentCast, createAgent, executionEvents, executionsOf, runAgents } from "../../helpers/agents";
import { propertyBody } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeWahaChannel, receive } from "../../helpers/messaging";

let c: Awaited<ReturnType<typeof agentCast>>;
let listingId: string;
const sentTo = (chatId: string) => c.gw.state.sent.filter((s) => s.chatId === chatId).map((s) => s.text);

beforeAll(async () => {
  c = await agentCast();
  const p = await call(propertiesRoute.POST, "POST", "/x", { key: c.t.key, body: propertyBody() });
  listingId = p.body.listings[0].id;
});
afterAll(() => c.close());

describe("an autonomous agent on an inbound message", () => {
  let agentId: string;
  const chat = "5511987650001@c.us";

  it("reads the chat, searches, makes the deal, replies through the gateway, and logs every step", async () => {
    agentId = (await createAgent(c.t, { templateId: "lead_qualifier", channelIds: [c.channel.id] })).id;
    const seen: { user: string; tools: string[]; system: string }[] = [];
    c.model.setScript((req, i) => {
      seen.push({ user: lastUserText(req), tools: req.toolNames, system: String(req.messages[0]?.content ?? "") });
      if (i === 0)
        return { toolCalls: [{ name: "search_listings", arguments: { query: "Jardins", type: "sale" } }], usage: { inputTokens: 100, outputTokens: 10 } };
      if (i === 1)
        return {
          toolCalls: [{ name: "save_deal", arguments: { contactName: "Paula", dealType: "sale", budget: 1300000, notes: "3 quartos nos Jardins" } }],
          usage: { inputTokens: 120, outputTokens: 12 },
        };
      if (i === 2)
        return {
          toolCalls: [{ name: "reply", arguments: { text: "Olá Paula! Temos um apartamento de 3 dormitórios nos Jardins. Quer agendar uma visita?" } }],
        };
      return { text: "", usage: { inputTokens: 50, outputTokens: 1 } };
    });
    const before = c.model.requests.length;
    await receive(c.gw, c.channel, chat, "Oi, quero comprar um apartamento nos Jardins", { pushName: "Paula" });
    const [queued] = await executionsOf(agentId);
    expect(queued).toMatchObject({ status: "queued", triggerType: "inbound_message", channelId: c.channel.id, chatId: chat });
    await runAgents();

    expect(sentTo(chat)).toEqual(["Olá Paula! Temos um apartamento de 3 dormitórios nos Jardins. Quer agendar uma visita?"]);
    expect(c.model.requests.length - before).toBe(4);
    expect(seen[0].user).toBe("Oi, quero comprar um apartamento nos Jardins");
    expect(seen[0].tools.sort()).toEqual(["hand_over", "label_chat", "reply", "save_deal", "search_listings"]);
    expect(seen[0].system).toContain("qualificar o lead");
    // The search result went back to the model: the listing's id is in the second request.
    expect(JSON.stringify(c.model.requests[before + 1].messages)).toContain(listingId);

    const [e] = await executionsOf(agentId);
    expect(e).toMatchObject({
      status: "completed",
      outcome: "replied",
      toolNames: ["search_listings", "save_deal", "reply"],
      inputTokens: 282,
      outputTokens: 31,
    });
    const db = await getDb();
    const [conv] = await db.select().from(messagingConversations).where(eq(messagingConversations.chatId, chat));
    expect(conv.primaryDealId).toBe(e.dealId);
    const [deal] = await db.select().from(deals).where(eq(deals.id, e.dealId!));
    expect(deal).toMatchObject({ dealType: "sale", source: "agent", createdById: c.t.ownerId });
    expect(deal.customData).toMatchObject({ budget: 1300000, additionalNotes: "3 quartos nos Jardins" });
    const [contact] = await db
      .select({ phone: contacts.phone, name: contacts.name })
      .from(dealContacts)
      .innerJoin(contacts, eq(contacts.id, dealContacts.contactId))
      .where(eq(dealContacts.dealId, deal.id));
    expect(contact).toEqual({ phone: "+5511987650001", name: "Paula" });
    expect(await tokensUsedThisMonth({ db, tenantId: c.t.tenantId, actor: systemActor(c.t.tenantId, "t") })).toBeGreaterThanOrEqual(313);

    // started, then exactly one completed, with the spec's fields and nothing of the conversation.
    const evs = await executionEvents([e.id]);
    expect(evs.map((x) => x.eventName)).toEqual(["agent.execution.started", "agent.execution.completed"]);
    const done = evs[1].data as Record<string, unknown>;
    expect(Object.keys(done).sort()).toEqual([...EXECUTION_EVENT_KEYS, "outcome", "tokenUsage", "toolCount", "toolNames"].sort());
    expect(done).toMatchObject({
      agentName: "Qualificador de leads",
      status: "completed",
      toolCount: 3,
      tokenUsage: { inputTokens: 282, outputTokens: 31, totalTokens: 313 },
    });
    expect(evs[1].userId).toBeNull();
    const text = JSON.stringify(evs);
    for (const secret of ["Paula", "Jardins", "apartamento", "qualificar", "1300000"]) expect(text).not.toContain(secret);
    // The deal the agent made names no user either.
    const dealEvents = await executionEvents([deal.id]);
    expect(dealEvents[0]).toMatchObject({ eventName: "deal.created", userId: null });
  });

  it("shows executions to members, and the steps with tool inputs and outputs to admins only", async () => {
    const admin = await call(executionsRoute.GET, "GET", "/x", { key: c.t.key, params: { id: agentId } });
    expect(admin.status).toBe(200);
    expect(admin.body.total).toBe(1);
    const item = admin.body.items[0];
    expect(item).toMatchObject({ status: "completed", toolNames: ["search_listings", "save_deal", "reply"], toolCount: 3, outcome: "replied" });
    expect(item.durationMs).toBeGreaterThanOrEqual(0);
    const toolSteps = item.steps.filter((s: { kind: string }) => s.kind === "tool");
    expect(toolSteps.map((s: { tool: string }) => s.tool)).toEqual(["search_listings", "save_deal", "reply"]);
    expect(toolSteps[1].input).toMatchObject({ contactName: "Paula" });
    expect(toolSteps[2].output).toMatchObject({ status: "sent" });
    const broker = await call(executionRoute.GET, "GET", "/x", { key: c.ana.key, params: { executionId: item.id } });
    expect(broker.status).toBe(200);
    expect(broker.body.execution.steps).toBeUndefined();
    expect(broker.body.execution.toolNames).toEqual(item.toolNames);
    expect((await call(executionRoute.GET, "GET", "/x", { key: c.other.key, params: { executionId: item.id } })).status).toBe(404);
    expect((await call(executionsRoute.GET, "GET", "/x", { key: c.other.key, params: { id: agentId } })).status).toBe(404);
  });

  it("a second message runs again with the whole chat, and a reply by a member pauses the agent in that chat", async () => {
    c.model.setScript((req) => {
      const hist = req.messages.filter((m) => m.role === "user" || m.role === "assistant").map((m) => `${m.role}:${m.content}`);
      return hist.length >= 3 ? { toolCalls: [{ name: "reply", arguments: { text: "Perfeito, anotado." } }] } : { text: "?" };
    });
    await receive(c.gw, c.channel, chat, "Pode ser sábado?");
    c.model.setScript((req, i) =>
      req.messages.at(-1)?.role === "tool" || i < 0 ? { text: "" } : { toolCalls: [{ name: "reply", arguments: { text: "Perfeito, anotado." } }] },
    );
    await runAgents();
    expect(sentTo(chat).at(-1)).toBe("Perfeito, anotado.");
    // The broker answers on the phone: agents stand down in this chat.
    await receive(c.gw, c.channel, chat, "Oi Paula, aqui é a Ana, corretora.", { fromMe: true });
    const db = await getDb();
    const [pause] = await db
      .select()
      .from(agentChatPauses)
      .where(and(eq(agentChatPauses.channelId, c.channel.id), eq(agentChatPauses.chatId, chat)));
    expect(pause.reason).toBe("human_reply");
    const before = (await executionsOf(agentId)).length;
    await receive(c.gw, c.channel, chat, "Combinado, obrigada!");
    expect((await executionsOf(agentId)).length).toBe(before);
  });

  it("a burst of messages before the agent runs makes one execution, which reads them all and answers once", async () => {
    const burst = "5511987650077@c.us";
    const before = (await executionsOf(agentId)).length;
    await receive(c.gw, c.channel, burst, "Oi");
    await receive(c.gw, c.channel, burst, "Vi o anúncio do apartamento");
    await receive(c.gw, c.channel, burst, "Ainda está disponível?");
    const queued = (await executionsOf(agentId)).filter((e) => e.chatId === burst);
    expect(queued).toHaveLength(1);
    expect(queued[0].status).toBe("queued");
    expect((await executionsOf(agentId)).length).toBe(before + 1);
    const users: string[][] = [];
    c.model.setScript((req) => {
      users.push(req.messages.filter((m) => m.role === "user").map((m) => String(m.content)));
      return req.messages.at(-1)?.role === "tool" ? { text: "" } : { toolCalls: [{ name: "reply", arguments: { text: "Está sim! Quer visitar?" } }] };
    });
    await runAgents();
    expect(sentTo(burst)).toEqual(["Está sim! Quer visitar?"]);
    expect(users[0].join(" ")).toContain("Ainda está disponível?");
    expect(users[0].join(" ")).toContain("Vi o anúncio do apartamento");
    // Once it ran, a new message queues a new execution.
    await receive(c.gw, c.channel, burst, "Pode ser amanhã?");
    expect((await executionsOf(agentId)).filter((e) => e.chatId === burst)).toHaveLength(2);
    c.model.setScript(() => ({ text: "" })); // the later tests' scripts start from an empty queue
    await runAgents();
  });
});

describe("hand-over", () => {
  it("assigns a broker to the deal and the chat, and stops agents there", async () => {
    const chat = "5511987650002@c.us";
    const ch = await makeWahaChannel(c.t, c.gw, { name: "Hand-over" });
    const agent = await createAgent(c.t, { templateId: "lead_qualifier", channelIds: [ch.id], name: "Triagem" });
    c.model.setScript((req, i) => {
      if (i % 10 === 0 && !req.messages.some((m) => m.role === "tool"))
        return {
          toolCalls: [
            { name: "save_deal", arguments: { contactName: "Rui" } },
            { name: "reply", arguments: { text: "Vou chamar um corretor." } },
          ],
        };
      if (!req.messages.some((m) => m.role === "tool" && String(JSON.stringify(m)).includes("handedOver")))
        return { toolCalls: [{ name: "hand_over", arguments: { reason: "cliente pediu corretor" } }] };
      return { text: "" };
    });
    c.model.requests.length = 0;
    await receive(c.gw, ch, chat, "Quero falar com um corretor");
    await runAgents();
    const [e] = await executionsOf(agent.id);
    expect(e).toMatchObject({ status: "completed", outcome: "handed_over" });
    expect(e.toolNames).toEqual(["save_deal", "reply", "hand_over"]);
    const db = await getDb();
    const [deal] = await db.select().from(deals).where(eq(deals.id, e.dealId!));
    expect(deal.assignedToId).toBe(c.t.ownerId); // the channel's owner
    const [conv] = await db.select().from(messagingConversations).where(eq(messagingConversations.chatId, chat));
    expect(conv.assignedToId).toBe(c.t.ownerId);
    const [pause] = await db.select().from(agentChatPauses).where(eq(agentChatPauses.chatId, chat));
    expect(pause.reason).toBe("handover");
    await receive(c.gw, ch, chat, "Alô?");
    expect(await executionsOf(agent.id)).toHaveLength(1);
  });
});

describe("approval and shadow modes", () => {
  it("approval holds each message until a member approves it; reject sends nothing", async () => {
    const chat = "5511987650003@c.us";
    const ch = await makeWahaChannel(c.t, c.gw, { name: "Aprovação" });
    const agent = await createAgent(c.t, { templateId: "listing_answerer", channelIds: [ch.id], executionMode: "approval", name: "Aprovação" });
    c.model.setScript((req) =>
      req.messages.some((m) => m.role === "tool") ? { text: "" } : { toolCalls: [{ name: "reply", arguments: { text: "O condomínio é R$ 900." } }] },
    );
    await receive(c.gw, ch, chat, "Qual o condomínio?");
    await runAgents();
    expect(sentTo(chat)).toEqual([]);
    const [e] = await executionsOf(agent.id);
    expect(e.outcome).toBe("held_for_approval");
    const list = await call(approvalsRoute.GET, "GET", "/api/v1/agents/approvals", { key: c.t.key });
    const held = list.body.items.find((a: { executionId: string }) => a.executionId === e.id);
    expect(held).toMatchObject({ status: "pending", text: "O condomínio é R$ 900.", chatId: chat, channelId: ch.id });
    // A broker without access to the channel sees none of it.
    expect((await call(approvalsRoute.GET, "GET", "/x", { key: c.ana.key })).body.items).toEqual([]);
    expect((await call(approveRoute.POST, "POST", "/x", { key: c.ana.key, params: { id: held.id } })).status).toBe(404);
    expect((await call(approveRoute.POST, "POST", "/x", { key: c.other.key, params: { id: held.id } })).status).toBe(404);
    const ok = await call(approveRoute.POST, "POST", "/x", { key: c.t.key, params: { id: held.id } });
    expect(ok.status).toBe(200);
    expect(ok.body.approval).toMatchObject({ status: "approved", decidedById: c.t.ownerId, ack: { status: "sent" } });
    expect(sentTo(chat)).toEqual(["O condomínio é R$ 900."]);
    expect((await call(approveRoute.POST, "POST", "/x", { key: c.t.key, params: { id: held.id } })).status).toBe(409);
    expect(sentTo(chat)).toHaveLength(1);
    // The approved message is the agent's: the agent is not paused by it.
    expect(await (await getDb()).select().from(agentChatPauses).where(eq(agentChatPauses.chatId, chat))).toEqual([]);

    await receive(c.gw, ch, chat, "E o IPTU?");
    await runAgents();
    const pending = (await call(approvalsRoute.GET, "GET", "/x", { key: c.t.key, query: { agentId: agent.id } })).body.items;
    expect(pending).toHaveLength(1);
    const rej = await call(rejectRoute.POST, "POST", "/x", { key: c.t.key, params: { id: pending[0].id } });
    expect(rej.body.approval.status).toBe("rejected");
    expect(sentTo(chat)).toHaveLength(1);
  });

  it("shadow sends nothing and records what it would have sent", async () => {
    const chat = "5511987650004@c.us";
    const ch = await makeWahaChannel(c.t, c.gw, { name: "Sombra" });
    const agent = await createAgent(c.t, { templateId: "listing_answerer", channelIds: [ch.id], executionMode: "shadow", name: "Sombra" });
    c.model.setScript((req) =>
      req.messages.some((m) => m.role === "tool") ? { text: "" } : { toolCalls: [{ name: "reply", arguments: { text: "Resposta de teste" } }] },
    );
    await receive(c.gw, ch, chat, "Tem vaga de garagem?");
    await runAgents();
    expect(sentTo(chat)).toEqual([]);
    const [e] = await executionsOf(agent.id);
    expect(e).toMatchObject({ status: "completed", outcome: "shadow_recorded", toolNames: ["reply"] });
    const shadow = await call(approvalsRoute.GET, "GET", "/x", { key: c.t.key, query: { status: "shadow", agentId: agent.id } });
    expect(shadow.body.items.map((a: { text: string }) => a.text)).toEqual(["Resposta de teste"]);
    expect((await call(approveRoute.POST, "POST", "/x", { key: c.t.key, params: { id: shadow.body.items[0].id } })).status).toBe(409);
  });
});

describe("other triggers", () => {
  it("a deal moving stage starts a deal_stage_changed agent on the deal's chat; the agent's own change does not loop", async () => {
    const chat = "5511987650005@c.us";
    await receive(c.gw, c.channel, chat, "Olá");
    const agent = await createAgent(c.t, {
      name: "Etapas",
      executionMode: "autonomous",
      audience: "all",
      instructions: "Avise o cliente da nova etapa.",
      channelIds: [c.channel.id],
      triggers: ["deal_stage_changed"],
      toolPolicy: { allow: ["reply", "save_deal"] },
    });
    const deal = await call((await import("../../../app/api/v1/crm/deals/route")).POST, "POST", "/x", {
      key: c.t.key,
      body: { title: "Compra", dealType: "sale", contacts: [{ name: "Lia", phone: "+5511987650005", role: "buyer" }] },
    });
    const dealId = deal.body.id;
    c.model.setScript((req) =>
      req.messages.some((m) => m.role === "tool") ? { text: "" } : { toolCalls: [{ name: "reply", arguments: { text: "Seu atendimento avançou." } }] },
    );
    const moved = await call(dealRoute.PATCH, "PATCH", "/x", { key: c.t.key, params: { id: dealId }, body: { id: dealId, data: { stage: "visita" } } });
    if (moved.status !== 200) {
      const stages = await call(dealRoute.PATCH, "PATCH", "/x", { key: c.t.key, params: { id: dealId }, body: { id: dealId, data: { stage: "nope" } } });
      throw new Error(JSON.stringify(stages.body));
    }
    const [queued] = await executionsOf(agent.id);
    expect(queued).toMatchObject({ triggerType: "deal_stage_changed", dealId, channelId: c.channel.id, chatId: chat });
    await runAgents();
    expect(sentTo(chat).at(-1)).toBe("Seu atendimento avançou.");
    expect((await executionsOf(agent.id))[0].status).toBe("completed");
  });
});
