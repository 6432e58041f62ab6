import { asc, eq, inArray } from "drizzle-orm";
import * as agentsRoute from "../../app/api/v1/agents/route";
import * as aiRoute from "../../app/api/v1/settings/ai/route";
import { getDb } from "../../db/client";
import { agentExecutions, events } from "../../db/schema";
import { runAgentExecutions } from "../../lib/agents/execution-queue";
import { logger } from "../../lib/log/logger";
import { startFakeModel } from "../fakes/model-server";
import type { TestTenant } from "./factories";
import { call } from "./http";
import { makeWahaChannel, messagingCast } from "./messaging";

/** The usual cast plus a fake model the tenant's AI settings point at, and a WAHA channel owned by the tenant's owner. */
export async function agentCast(opts: { budget?: number | null } = {}) {
  const cast = await messagingCast();
  const model = await startFakeModel();
  const channel = await makeWahaChannel(cast.t, cast.gw);
  await setAi(cast.t, model.url, opts.budget ?? null);
  return { ...cast, model, channel, close: async () => Promise.all([cast.gw.close(), model.close()]) };
}

export async function setAi(t: TestTenant, baseUrl: string, monthlyTokenBudget: number | null) {
  const res = await call(aiRoute.PUT, "PUT", "/api/v1/settings/ai", {
    key: t.key,
    body: { baseUrl, apiKey: "sk-test", defaultModel: "fake-agent", monthlyTokenBudget },
  });
  if (res.status !== 200) throw new Error(`ai settings failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function createAgent(t: TestTenant, body: Record<string, unknown>, key = t.key) {
  const res = await call(agentsRoute.POST, "POST", "/api/v1/agents", { key, body });
  if (res.status !== 201) throw new Error(`agent create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.agent as { id: string; name: string };
}

/** Runs every queued execution now (tests run with JOBS_RUNNER=off), with a short model timeout. */
export async function runAgents(stepTimeoutMs = 1500) {
  return runAgentExecutions(await getDb(), logger(), 100, { stepTimeoutMs });
}

export async function executionsOf(agentId: string) {
  return (await getDb()).select().from(agentExecutions).where(eq(agentExecutions.agentId, agentId)).orderBy(asc(agentExecutions.createdAt));
}

export async function executionEvents(ids: string[]) {
  if (!ids.length) return [];
  return (await getDb()).select().from(events).where(inArray(events.entityId, ids)).orderBy(asc(events.seq));
}

/** The keys spec 2 §6 lists for execution events (plus `startedAt`'s companions on every one). */
export const EXECUTION_EVENT_KEYS = [
  "agentId",
  "agentName",
  "chatId",
  "channelId",
  "completedAt",
  "durationMs",
  "executionId",
  "startedAt",
  "status",
  "triggerId",
  "triggerType",
];
