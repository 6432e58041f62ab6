/**
 * Agent benchmark: a WAHA-like gateway and an OpenAI-compatible model on 127.0.0.1, the model
 * answering every call in 200 ms (`BENCH_MODEL_DELAY_MS`). An autonomous agent with `reply` answers
 * each new chat: the model's first call asks for `reply`, its second ends the loop.
 *
 * - inbound message to first reply sent: a signed WAHA `message` webhook posted to our route (stored,
 *   then processed by the embedded job runner as in production), until the gateway receives the
 *   agent's reply for that chat. `BENCH_CHATS` chats (default 100), `BENCH_CONCURRENCY` at a time
 *   (default 10). Target p95 ≤ 1.5 s, the model's time included.
 * - agent overhead per step: each execution's duration minus the time its model calls spent at the
 *   model (measured at the fake: request received to answer sent), divided by its model calls.
 *   Target ≤ 50 ms a step.
 *
 *   npm run bench:agents                               # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npm run bench:agents   # PostgreSQL (a scratch database)
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { eq } from "drizzle-orm";
import * as webhookRoute from "../../app/api/webhooks/messaging/[channelToken]/route";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { agentExecutions } from "../../db/schema";
import { createTenant } from "../../lib/admin/create-tenant";
import { createAgent } from "../../lib/agents/agents";
import { putAiSettings } from "../../lib/ai/ai-settings";
import { authenticateApiKey } from "../../lib/auth/authenticate-key";
import { memberCtx } from "../../lib/context/verb-context";
import { startEmbeddedRunner } from "../../lib/jobs/embedded-runner";
import { createMessagingChannel } from "../../lib/messaging/channels";
import { startAgentFakes, wallNow } from "./agent-fakes-client";
import { percentiles, scratchDatabase } from "./http-load";

const CHATS = Number(process.env.BENCH_CHATS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const MODEL_DELAY_MS = Number(process.env.BENCH_MODEL_DELAY_MS ?? 200);
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true"; // gateway and model are on 127.0.0.1
  process.env.JOBS_RUNNER = "embedded";
  if (process.env.DATABASE_URL) await scratchDatabase(process.env.BENCH_DB ?? "crm_bench_agents", false);
  else process.env.PGLITE_DIR = "memory://";
  await runMigrations();
  const db = await getDb();
  // The model's first call asks for `reply`, its second (after the tool result) ends the loop.
  const fakes = await startAgentFakes({ gateways: 1, modelDelayMs: MODEL_DELAY_MS });
  const gw = fakes.gateways[0];
  const model = { url: fakes.modelUrl };

  const t = await createTenant({ db }, { name: "Bench Agents", owner: { name: "Dona", email: "dona@bench-agents.example.com" } });
  const ctx = memberCtx(db, await authenticateApiKey(db, t.apiKey));
  await putAiSettings(ctx, { baseUrl: model.url, apiKey: "sk-bench", defaultModel: "bench-model", monthlyTokenBudget: null });
  const channel = await createMessagingChannel(ctx, {
    origin: "http://localhost",
    body: { name: "WhatsApp", transport: "whatsapp", provider: "waha", baseUrl: gw.url, apiKey: gw.apiKey, sessionName: gw.session },
  });
  const token = channel.webhook!.url.split("/").pop()!;
  const secret = channel.webhook!.hmacSecret!;
  const { agent } = await createAgent(ctx, { templateId: "lead_qualifier", channelIds: [channel.id], toolPolicy: { allow: ["reply"] } });

  // Time each reply as the gateway receives it (wall-clock time, taken in the fakes' process).
  const replied = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  fakes.onSent((s) => {
    if (!replied.has(s.chatId)) replied.set(s.chatId, s.at);
    waiters.get(s.chatId)?.();
  });
  const runner = startEmbeddedRunner();

  const latencies: number[] = [];
  const one = async (i: number) => {
    const chatId = `55119${String(70000000 + i)}@c.us`;
    const done = new Promise<void>((resolve) => waiters.set(chatId, resolve));
    const wh = await gw.inbound(secret, chatId, "Oi, vi o anúncio do apartamento", { pushName: `Cliente ${i}` });
    const t0 = wallNow();
    const url = `http://localhost/api/webhooks/messaging/${token}`;
    const res = await webhookRoute.POST(new Request(url, { method: "POST", headers: wh.headers, body: wh.body }), {
      params: Promise.resolve({ channelToken: token }),
    });
    if (res.status !== 200) throw new Error(`webhook ${res.status}: ${await res.text()}`);
    await Promise.race([done, new Promise((_, no) => setTimeout(() => no(new Error(`no reply for ${chatId} in 30 s`)), 30_000))]);
    latencies.push(replied.get(chatId)! - t0);
  };

  // Warm-up: a few chats one at a time (JIT, first connections), not counted.
  for (let i = 0; i < 3; i++) await one(1_000_000 + i);
  latencies.length = 0;
  const warmExecutions = (await db.select({ id: agentExecutions.id }).from(agentExecutions)).map((r) => r.id);

  // How busy this process is meanwhile: the agents' overhead at ten chats at a time is mostly waiting for it.
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < CHATS; i = next++) await one(i);
    }),
  );
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const busy = `event loop ${performance.eventLoopUtilization(elu0).utilization.toFixed(2)} busy, ${((cpu.user + cpu.system) / 1000 / CHATS).toFixed(1)} ms CPU a chat`;
  // Let the executions record their end (the second model call runs after the reply was sent).
  for (let k = 0; k < 100; k++) {
    const open = await db.select({ id: agentExecutions.id }).from(agentExecutions).where(eq(agentExecutions.status, "running"));
    if (!open.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await runner.stop();

  const rows = (await db.select().from(agentExecutions).where(eq(agentExecutions.agentId, agent.id))).filter((r) => !warmExecutions.includes(r.id));
  const completed = rows.filter((r) => r.status === "completed");
  const perStep = completed.map((r) => {
    const calls = (r.steps as { kind: string }[]).filter((s) => s.kind === "model").length || 1;
    return (r.completedAt!.getTime() - r.startedAt!.getTime() - calls * MODEL_DELAY_MS) / calls;
  });
  const queueWait = completed.map((r) => r.claimedAt!.getTime() - r.createdAt.getTime());
  const startCost = completed.map((r) => r.startedAt!.getTime() - r.claimedAt!.getTime());
  const p = percentiles(latencies);
  const o = percentiles(perStep);
  const w = percentiles(queueWait);
  const sc = percentiles(startCost);
  console.log(
    `agents bench: ${CHATS} chats, ${CONCURRENCY} at a time, model ${MODEL_DELAY_MS} ms a call, ${process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}, load ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(", ")}`,
  );
  console.log(
    `  inbound message -> first reply sent: p50 ${ms(p.p50)}, p95 ${ms(p.p95)}, p99 ${ms(p.p99)} (target p95 <= 1500 ms); ${(CHATS / (wall / 1000)).toFixed(1)} chats/s; ${busy}`,
  );
  console.log(`  agent overhead per model step (duration - model time) / calls: p50 ${ms(o.p50)}, p95 ${ms(o.p95)} (target <= 50 ms)`);
  console.log(
    `  queued -> claimed: p50 ${ms(w.p50)}, p95 ${ms(w.p95)}; claimed -> started: p50 ${ms(sc.p50)}, p95 ${ms(sc.p95)}; executions: ${completed.length} completed of ${rows.length}`,
  );
  await fakes.close();
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
