import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { members } from "../../../db/schema";
import { runAgentExecutions } from "../../../lib/agents/execution-queue";
import { asPacedWork } from "../../../lib/jobs/paced-work";
import { logger } from "../../../lib/log/logger";
import { agentCast, createAgent, executionEvents, executionsOf } from "../../helpers/agents";
import { makeMember } from "../../helpers/factories";
import { grant, makeWahaChannel, postWebhook, processNow, receive } from "../../helpers/messaging";

/**
 * Agent executions and the chats that trigger them yield to paced work (event delivery, lead
 * processing) in the same process: they wait while it runs, go on when it ends, and go on after
 * their bound when it does not (delayed, never starved).
 */
let c: Awaited<ReturnType<typeof agentCast>>;
let agentId: string;
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A paced run (counted at once) that lasts until `end()`. */
function pacedRun() {
  let end: () => void = () => {};
  const done = asPacedWork(() => new Promise<void>((r) => (end = r)), 0);
  return { end: () => end(), done };
}

beforeAll(async () => {
  c = await agentCast();
  agentId = (await createAgent(c.t, { templateId: "lead_qualifier", channelIds: [c.channel.id], toolPolicy: { allow: ["reply"] } })).id;
  c.model.setScript((req) =>
    req.messages.some((m) => m.role === "tool") ? { text: "" } : { toolCalls: [{ name: "reply", arguments: { text: "Olá! Comprar ou alugar?" } }] },
  );
});
afterAll(() => c.close());

const run = async (pacedYieldMs: number) => runAgentExecutions(await getDb(), logger(), 100, { stepTimeoutMs: 5_000, pacedYieldMs });
const sentTo = (chatId: string) => c.gw.state.sent.filter((s) => s.chatId === chatId).map((s) => s.text);

describe("agents beside paced work", () => {
  it("an execution waits while a paced job runs, and answers once it ends", async () => {
    const chat = "5511990000001@c.us";
    await receive(c.gw, c.channel, chat, "Oi, vi o anúncio");
    const before = c.model.requests.length;
    const paced = pacedRun();
    const round = run(30_000);
    await tick(400);
    // Claimed, but no model call, no reply while the paced run goes on.
    expect(c.model.requests.length).toBe(before);
    expect(sentTo(chat)).toEqual([]);
    paced.end();
    await paced.done;
    expect(await round).toMatchObject({ claimed: 1, processed: 1, failed: 0 });
    expect(sentTo(chat)).toEqual(["Olá! Comprar ou alugar?"]);
    const [e] = (await executionsOf(agentId)).filter((x) => x.chatId === chat);
    expect(e).toMatchObject({ status: "completed", outcome: "replied" });
  });

  it("is never starved: paced work that does not end holds an execution back only for its bound", async () => {
    const chat = "5511990000002@c.us";
    await receive(c.gw, c.channel, chat, "Oi, ainda disponível?");
    const paced = pacedRun();
    try {
      const t0 = performance.now();
      expect(await run(300)).toMatchObject({ claimed: 1, processed: 1, failed: 0 });
      expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
      expect(sentTo(chat)).toEqual(["Olá! Comprar ou alugar?"]);
    } finally {
      paced.end();
      await paced.done;
    }
  });

  it("a chat's webhook is processed (and its execution queued) after the paced run, not through it", async () => {
    const chat = "5511990000003@c.us";
    const paced = pacedRun();
    const wh = c.gw.inbound(c.channel.secret, chat, "Bom dia");
    expect((await postWebhook(c.channel.token, wh)).status).toBe(200);
    const processing = processNow();
    await tick(300);
    expect((await executionsOf(agentId)).filter((x) => x.chatId === chat)).toEqual([]);
    paced.end();
    await paced.done;
    expect(await processing).toMatchObject({ processed: 1 });
    expect((await executionsOf(agentId)).filter((x) => x.chatId === chat)).toMatchObject([{ status: "queued" }]);
  });
});

describe("the agent's owner, read with the agent", () => {
  it("an agent whose creator was deactivated starts and fails with agent_owner_inactive, sending nothing", async () => {
    await run(10_000); // what the tests before left queued
    const admin = await makeMember(c.t, "admin");
    const channel = await makeWahaChannel(c.t, c.gw);
    await grant(c.t, channel.id, [admin.userId]);
    const other = (await createAgent(c.t, { templateId: "lead_qualifier", channelIds: [channel.id], toolPolicy: { allow: ["reply"] } }, admin.key)).id;
    await (await getDb()).update(members).set({ active: false }).where(eq(members.id, admin.userId));
    const chat = "5511990000004@c.us";
    const before = c.model.requests.length;
    await receive(c.gw, channel, chat, "Oi");
    expect(await run(10_000)).toMatchObject({ claimed: 1, processed: 1 });
    const [e] = (await executionsOf(other)).filter((x) => x.chatId === chat);
    expect(e).toMatchObject({ status: "failed", errorMessage: "agent_owner_inactive" });
    expect((await executionEvents([e.id])).map((x) => x.eventName)).toEqual(["agent.execution.started", "agent.execution.failed"]);
    expect(c.model.requests.length).toBe(before);
    expect(sentTo(chat)).toEqual([]);
  });
});
