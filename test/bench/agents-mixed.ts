/**
 * Agents beside the rest of the background work: 20 tenants, each with an autonomous agent on its
 * own WhatsApp gateway (a WAHA-like server on 127.0.0.1), a model answering in 200 ms, a webhook
 * receiver and a portal channel. The same background work runs twice in the process's embedded job
 * runner, as a node runs it in production:
 *
 *   A. alone: `BENCH_EVENTS` outbound events (queued at once, delivered to the receiver) and
 *      `BENCH_LEADS` portal leads (posted to the lead webhook, processed into deals);
 *   B. the same amounts again while `BENCH_EXECUTIONS` agent executions (200: ten new chats a tenant,
 *      posted at once) run.
 *
 * Prints how long events and leads took in each phase and the delay B adds (target: ≤ 10 %), and
 * how long the agents took to answer all 200 chats.
 *
 * The model, the 20 gateways and the webhook receiver run in a child process (`agent-fakes.ts`):
 * in production they are other machines, and in this process their work (every model call's JSON,
 * history reads, sends, the webhooks received) took the event loop the timed work runs on.
 *
 *   DATABASE_URL=postgres://... npm run bench:agents:mixed   # PostgreSQL (a scratch database)
 */
import os from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import * as leadRoute from "../../app/api/webhooks/channels/[pathToken]/route";
import * as messagingRoute from "../../app/api/webhooks/messaging/[channelToken]/route";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { createTenant } from "../../lib/admin/create-tenant";
import { createAgent } from "../../lib/agents/agents";
import { putAiSettings } from "../../lib/ai/ai-settings";
import { authenticateApiKey } from "../../lib/auth/authenticate-key";
import { memberCtx } from "../../lib/context/verb-context";
import { sendJobEvent } from "../../lib/jobs/dispatch";
import { startEmbeddedRunner } from "../../lib/jobs/embedded-runner";
import { createChannel } from "../../lib/leads/marketing-channels";
import { createMessagingChannel } from "../../lib/messaging/channels";
import { eventsQueued } from "../../lib/outbox/events-queued";
import { type BenchGateway, startAgentFakes } from "./agent-fakes-client";
import { scratchDatabase } from "./http-load";

const TENANTS = Number(process.env.BENCH_TENANTS ?? 20);
const EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 200);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 4_000);
const LEADS = Number(process.env.BENCH_LEADS ?? 400);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

type Tenant = { id: string; gw: BenchGateway; chatToken: string; chatSecret: string; leadToken: string };

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true"; // gateways, model and receiver are on 127.0.0.1
  process.env.JOBS_RUNNER = "embedded";
  if (!process.env.DATABASE_URL) throw new Error("Set DATABASE_URL to a PostgreSQL server (a scratch database is made on it).");
  await scratchDatabase(process.env.BENCH_DB ?? "crm_bench_agents_mixed", false);
  await runMigrations();
  const db = await getDb();

  // The model answers in 200 ms: its first call asks for `reply`, the one after the tool result ends the loop.
  const fakes = await startAgentFakes({ gateways: TENANTS, modelDelayMs: 200 });
  const hookUrl = fakes.hookUrl;
  const model = { url: fakes.modelUrl };

  console.log(`Setting up ${TENANTS} tenants (agent, WhatsApp gateway, portal channel, webhook receiver)...`);
  const tenants: Tenant[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const t = await createTenant({ db }, { name: `Mixed ${i}`, owner: { name: "Dona", email: `dona${i}@bench-mixed.example.com` } });
    const ctx = memberCtx(db, await authenticateApiKey(db, t.apiKey));
    const gw = fakes.gateways[i];
    await putAiSettings(ctx, { baseUrl: model.url, apiKey: "sk-bench", defaultModel: "bench-model", monthlyTokenBudget: null });
    const chat = await createMessagingChannel(ctx, {
      origin: "http://localhost",
      body: { name: "WhatsApp", transport: "whatsapp", provider: "waha", baseUrl: gw.url, apiKey: gw.apiKey, sessionName: gw.session },
    });
    // Answers chats only: the leads of the benchmark are the other work, not more executions.
    await createAgent(ctx, { templateId: "lead_qualifier", channelIds: [chat.id], triggers: ["inbound_message"], toolPolicy: { allow: ["reply"] } });
    const portal = await createChannel(ctx, { name: "Portal", kind: "portal" });
    // Only the benchmark's own events reach the receiver: agents' and leads' events are delivered too
    // (other tenants' webhooks would see them), but are not what is timed here.
    await db.execute(
      sql`insert into webhook_settings (tenant_id, url, events, hmac, secret) values (${t.tenantId}, ${hookUrl}, array['contact.merged'], true, 'bench-secret')`,
    );
    tenants.push({ id: t.tenantId, gw, chatToken: chat.webhook!.url.split("/").pop()!, chatSecret: chat.webhook!.hmacSecret!, leadToken: portal.pathToken });
  }

  const runner = startEmbeddedRunner();
  const count = async () =>
    rowsOf<{ stored: number; processed: number; open: number; done: number }>(
      await db.execute(sql`select
        (select count(*)::int from inbound_leads) as stored,
        (select count(*)::int from inbound_leads where status = 'processed') as processed,
        (select count(*)::int from agent_executions where status in ('queued', 'running')) as open,
        (select count(*)::int from agent_executions where status = 'completed') as done`),
    )[0];
  const waitFor = async (done: () => Promise<boolean> | boolean, what: string) => {
    const limit = performance.now() + 10 * 60_000;
    while (!(await done())) {
      if (performance.now() > limit) throw new Error(`${what}: not done in 10 minutes`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return performance.now();
  };

  /** Queues the events and posts the leads at once; the time until all events are delivered and all leads processed. */
  const backgroundWork = async (phase: string, nEvents = EVENTS, nLeads = LEADS) => {
    const before = { received: await fakes.received(), ...(await count()) };
    // How busy this process was meanwhile: its event loop's utilization and lag, and its CPU.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const fakesCpu0 = await fakes.cpuMs();
    const t0 = performance.now();
    const perTenant = Math.ceil(nEvents / TENANTS);
    await db.execute(sql`
      with e as (
        insert into events (tenant_id, event_name, entity_type, entity_id, user_id, data, old, occurred_at)
        select t.id, 'contact.merged', 'contact', gen_random_uuid()::text, null, jsonb_build_object('n', n), null, now()
        from unnest(${`{${tenants.map((t) => t.id).join(",")}}`}::uuid[]) as t(id), generate_series(1, ${perTenant}) n
        order by t.id, n
        returning id, tenant_id, seq
      )
      insert into event_deliveries (event_id, tenant_id) select id, tenant_id from e order by seq`);
    sendJobEvent(eventsQueued, {});
    const leadsPosted = Promise.all(
      Array.from({ length: nLeads }, (_, i) => {
        const t = tenants[i % TENANTS];
        const url = `http://localhost/api/webhooks/channels/${t.leadToken}`;
        const body = JSON.stringify({
          contactName: `Lead ${phase}${i}`,
          phone: `+55119${String(20_000_000 + i + (({ A: 0, B: 500_000 } as Record<string, number>)[phase] ?? 900_000)).slice(-8)}`,
          businessType: "sale",
          message: "Tenho interesse",
          originLeadId: `${phase}-${i}`,
        });
        return leadRoute.POST(new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body }), {
          params: Promise.resolve({ pathToken: t.leadToken }),
        });
      }),
    );
    const expected = perTenant * TENANTS;
    const eventsDone = waitFor(async () => (await fakes.received()) - before.received >= expected, `${phase} events`);
    for (const r of await leadsPosted) if (r.status !== 202 && r.status !== 200) throw new Error(`lead ${r.status}: ${await r.text()}`);
    const leadsDone = waitFor(async () => {
      const c = await count();
      return c.processed - before.processed >= nLeads;
    }, `${phase} leads`);
    const [e, l] = await Promise.all([eventsDone, leadsDone]);
    lag.disable();
    const cpu = process.cpuUsage(cpu0);
    const wall = Math.max(e, l) - t0;
    const fakesCpu = (await fakes.cpuMs()) - fakesCpu0;
    const busy = `event loop ${performance.eventLoopUtilization(elu0).utilization.toFixed(2)} busy, lag p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms, CPU ${((cpu.user + cpu.system) / 1000 / wall).toFixed(2)} cores (fakes' process ${(fakesCpu / wall).toFixed(2)})`;
    return { events: e - t0, leads: l - t0, expected, busy };
  };

  // Warm-up: a little of each, untimed (JIT, first connections, the model's and gateways' sockets).
  await postChats(tenants, 1, "w");
  // Until the warm-up's executions are done: right after the posts none may be queued yet (the
  // messages are processed in the background), so "nothing open" alone let them run into phase A.
  await waitFor(async () => {
    const c = await count();
    return c.done >= TENANTS && c.open === 0;
  }, "warm-up executions");
  // And a tenth of the background work: without it phase A ran the delivery and lead code cold
  // (JIT, first plans) and B warm, which made B look faster than A by 25-55 % with no agents at all.
  await backgroundWork("W", EVENTS / 10, LEADS / 10);

  console.log(`A. ${EVENTS} events and ${LEADS} leads, nothing else running...`);
  const a = await backgroundWork("A");
  console.log(`   events delivered in ${s(a.events)} (${(a.expected / (a.events / 1000)).toFixed(0)}/s); leads processed in ${s(a.leads)}; ${a.busy}`);

  console.log(`B. the same while ${EXECUTIONS} agent executions (${EXECUTIONS / TENANTS} new chats per tenant) run...`);
  const doneBefore = (await count()).done;
  const t0 = performance.now();
  await postChats(tenants, EXECUTIONS / TENANTS, "b");
  const b = await backgroundWork("B");
  const agentsDone = await waitFor(async () => (await count()).done - doneBefore >= EXECUTIONS, "agent executions");
  const delay = (x: number, y: number) => `${(((y - x) / x) * 100).toFixed(1)} %`;
  console.log(`   events delivered in ${s(b.events)} (${(b.expected / (b.events / 1000)).toFixed(0)}/s); leads processed in ${s(b.leads)}; ${b.busy}`);
  console.log(`   the ${EXECUTIONS} executions completed ${s(agentsDone - t0)} after their chats were posted`);
  console.log(
    `Delay added by the agents (target ≤ 10 %): events ${delay(a.events, b.events)}, leads ${delay(a.leads, b.leads)}; load ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(", ")}`,
  );
  await runner.stop();
  await fakes.close();
  await closeDb();
}

/** Posts `perTenant` new chats' first messages to every tenant's WhatsApp webhook at once. */
async function postChats(tenants: Tenant[], perTenant: number, run: string) {
  await Promise.all(
    tenants.flatMap((t, ti) =>
      Array.from({ length: perTenant }, async (_, i) => {
        const chatId = `55118${String(ti * 1000 + i).padStart(4, "0")}${run === "w" ? "1" : "2"}${String(i).padStart(3, "0")}@c.us`;
        const wh = await t.gw.inbound(t.chatSecret, chatId, "Oi, vi o anúncio do apartamento", { pushName: `Cliente ${ti}-${i}` });
        const res = await messagingRoute.POST(
          new Request(`http://localhost/api/webhooks/messaging/${t.chatToken}`, { method: "POST", headers: wh.headers, body: wh.body }),
          {
            params: Promise.resolve({ channelToken: t.chatToken }),
          },
        );
        if (res.status !== 200) throw new Error(`webhook ${res.status}: ${await res.text()}`);
      }),
    ),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
