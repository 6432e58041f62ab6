/**
 * Lead intake benchmark on PostgreSQL: the production build (`npm start`) takes leads from 20
 * concurrent clients (one in ten repeating an `originLeadId`), answers 202 after storing each, and
 * a jobs worker processes them into deals. Phases: (1) intake alone, the worker not running yet,
 * as fast as the clients get answers and (1b) at the target's 500 a second in open loop; (2) the worker starts and processes them; (3) a burst while the worker processes it on the same
 * cores; (4) posts at a steady 500 a second (open loop) processed as they come; (5) `sync=deal`.
 * Targets: ≥ 500 leads/s accepted with ack p99 ≤ 50 ms; ≥ 200 leads/s processed end to end
 * (deal, contact, distribution, events); `sync=deal` p50 ≤ 100 ms.
 *
 *   npm run build && DATABASE_URL=postgres://... npm run bench:leads    # BENCH_LEADS=5000, BENCH_DB=crm_bench_leads, BENCH_PORT=3212 by default
 *
 * `BENCH_JOBS=worker` (the default) processes in a jobs worker process (`npm run jobs`) beside the
 * server started with `JOBS_RUNNER=worker`; `BENCH_JOBS=embedded` in the server's own runner.
 */
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { authenticateApiKey } from "../../lib/auth/authenticate-key";
import { memberCtx } from "../../lib/context/verb-context";
import { createChannel } from "../../lib/leads/marketing-channels";
import { createMember } from "../../lib/tenants/members";
import { createTenant } from "../../lib/admin/create-tenant";
import { spawn } from "node:child_process";
import { fmt, loadClient, paced, percentiles, scratchDatabase, startServer } from "./http-load";

const LEADS = Number(process.env.BENCH_LEADS ?? 5000);
const SYNC = Number(process.env.BENCH_SYNC ?? 300);
const CLIENTS = 20;
/** The issue's intake target, sent in open loop. */
const RATE = 500;
const PORT = Number(process.env.BENCH_PORT ?? 3212);
const JOBS = process.env.BENCH_JOBS === "embedded" ? "embedded" : "worker";

/** `npm run jobs` on the bench database, once it listens for wake-ups; the bench stops if it dies. */
function startJobsWorker(dbUrl: string): Promise<{ stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", "lib/server/jobs-worker-cli.ts"], {
    env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stopping = false;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return new Promise((resolve, reject) => {
    child.stdout!.on(
      "data",
      (d: Buffer) =>
        d.toString().includes("jobs worker listening") &&
        resolve({
          stop: async () => {
            stopping = true;
            child.kill("SIGTERM");
            await exited;
          },
        }),
    );
    child.on("exit", (code) => {
      if (stopping) return;
      reject(new Error(`the jobs worker exited with ${code}`));
      console.error(`The jobs worker exited with ${code}: the figures would be wrong, stopping.`);
      process.exitCode = 1;
      process.kill(process.pid, "SIGINT");
    });
  });
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  const dbUrl = await scratchDatabase(process.env.BENCH_DB ?? "crm_bench_leads", false);
  await runMigrations();
  const db = await getDb();
  const t = await createTenant({ db }, { name: "Bench Leads", owner: { name: "Dona", email: "dona@bench.example.com" } });
  const ctx = memberCtx(db, await authenticateApiKey(db, t.apiKey));
  const queue: string[] = [];
  for (let i = 0; i < 5; i++) queue.push((await createMember(ctx, { name: `Corretor ${i}`, email: `c${i}@bench.example.com` })).id);
  const channel = await createChannel(ctx, { name: "Portal", kind: "portal", queue });
  await closeDb();

  const server = await startServer(PORT, { DATABASE_URL: dbUrl, JOBS_RUNNER: JOBS });
  let worker: { stop: () => Promise<void> } | undefined;
  process.once("SIGINT", () => void server.stop().then(() => process.exit(1)));
  console.log(
    JOBS === "worker" ? "Jobs in their own process (npm run jobs; server JOBS_RUNNER=worker)" : "Jobs in the server's embedded runner (JOBS_RUNNER=embedded)",
  );
  const { send, hammer } = loadClient(CLIENTS);
  const url = `${server.base}/api/webhooks/channels/${channel.pathToken}`;
  // Each phase posts its own leads (`run` keeps their origin ids apart).
  const lead = (run: string, i: number) =>
    JSON.stringify({
      contactName: `Lead ${i}`,
      phone: `+55119${String(10_000_000 + Math.abs(i)).slice(-8)}`,
      businessType: i % 3 ? "sale" : "rent",
      utmSource: "portal",
      message: "Tenho interesse",
      bedrooms: 2 + (Math.abs(i) % 3),
      // One lead in ten repeats an earlier origin id, as portals retry.
      originLeadId: `${run}-${i % 10 === 9 ? i - 1 : i}`,
    });
  const accepted = (s: number) => s === 202 || s === 200;
  const db2 = await getDb();
  const count = async () =>
    rowsOf<{ stored: number; processed: number }>(
      await db2.execute(sql`select count(*)::int as stored, count(*) filter (where status = 'processed')::int as processed from inbound_leads`),
    )[0];
  /** Waits until every stored lead is processed; the time it happened. */
  const drained = async () => {
    for (let c = await count(); c.processed < c.stored; c = await count()) await new Promise((r) => setTimeout(r, 100));
    return performance.now();
  };
  try {
    // The floor of the framework in the same run: Next.js answering its cheapest route (liveness,
    // no database) to the same 20 clients.
    const floor = await hammer(
      3000,
      () => send(`${server.base}/api/health`),
      (s) => s === 200,
      0,
    );
    console.log(`Next.js route with no work (/api/health, ${CLIENTS} clients, same server): ${fmt(floor)}`);

    // An untimed pass first, as the other HTTP benchmarks do: a fresh server's first few thousand
    // requests run partly unoptimized (V8's JIT). Its leads are processed with phase 2's.
    await hammer(2000, (i) => send(url, { method: "POST", body: lead("w", i) }), accepted, 0);
    if (JOBS === "worker") {
      // 1. Intake alone: the jobs worker is not running yet (as when it runs on another machine,
      //    or yields to a burst): what the web side answers by itself.
      const alone = await hammer(LEADS, (i) => send(url, { method: "POST", body: lead("a", i) }), accepted, 0);
      console.log(`1. Intake alone, jobs worker not running (${LEADS} posts, ${CLIENTS} clients as fast as they get answers): ${fmt(alone)}`);
      // 1b. The target as a portal would load us: 500 leads/s sent on schedule by the same clients.
      const target = await paced((i) => send(url, { method: "POST", body: lead("t", i) }), LEADS, RATE, CLIENTS, accepted);
      console.log(
        `1b. Intake alone at ${RATE} leads/s from ${CLIENTS} clients (target ≥ 500 leads/s, ack p99 ≤ 50 ms): sent at ${target.rps.toFixed(0)}/s, ack p50 ${target.p50.toFixed(1)} ms, p95 ${target.p95.toFixed(1)} ms, p99 ${target.p99.toFixed(1)} ms${target.failures ? `, ${target.failures} not accepted` : ""}`,
      );
      // 2. Processing alone: the worker starts and drains them.
      const t0 = performance.now();
      worker = await startJobsWorker(dbUrl);
      const t1 = await drained();
      const { processed } = await count();
      console.log(
        `2. Processing alone: the worker started and processed the ${processed} leads into deals in ${((t1 - t0) / 1000).toFixed(1)} s, its start included: ${(processed / ((t1 - t0) / 1000)).toFixed(0)} leads/s (target ≥ 200)`,
      );
    } else worker = undefined;

    // 3. Both at once on the same cores: a burst while the worker processes it.
    const before = await count();
    const started = performance.now();
    const burst = await hammer(LEADS, (i) => send(url, { method: "POST", body: lead("b", i) }), accepted, 0);
    const burstEnd = { at: performance.now(), ...(await count()) };
    const end = await drained();
    const after = await count();
    const seconds = (end - started) / 1000;
    const n = after.processed - before.processed;
    console.log(`3. Intake while the same cores process (${LEADS} posts, ${CLIENTS} clients): accepted ${fmt(burst)}`);
    console.log(
      `   processed end to end: ${n} leads (${LEADS - (after.stored - before.stored)} repeats folded) in ${seconds.toFixed(1)} s from the first post: ${(n / seconds).toFixed(0)} leads/s (target ≥ 200); ` +
        `${burstEnd.processed - before.processed} while the posts came in, the rest in ${((end - burstEnd.at) / 1000).toFixed(1)} s after`,
    );

    // 4. A portal posting at 500 leads/s (open loop: each post is sent on schedule, whatever the
    //    answers before it), processed as they come: the acks' latency at the target rate.
    const steady = await paced((i) => send(url, { method: "POST", body: lead("c", i) }), LEADS, RATE, CLIENTS, accepted);
    const steadyEnd = await drained();
    console.log(
      `4. ${LEADS} posts at ${RATE} leads/s from ${CLIENTS} clients, processed as they come: sent at ${steady.rps.toFixed(0)}/s, ack p50 ${steady.p50.toFixed(1)} ms, p95 ${steady.p95.toFixed(1)} ms, p99 ${steady.p99.toFixed(1)} ms${steady.failures ? `, ${steady.failures} not accepted` : ""}; all processed ${((steadyEnd - steady.endedAt) / 1000).toFixed(1)} s after the last post`,
    );

    const times: number[] = [];
    for (let i = 0; i < SYNC; i++) {
      const t0 = performance.now();
      const res = await send(`${url}?sync=deal`, { method: "POST", body: lead("s", 1_000_000 + i) });
      if (res.status !== 200) throw new Error(`sync=deal answered ${res.status}`);
      times.push(performance.now() - t0);
    }
    const p = percentiles(times);
    console.log(
      `5. sync=deal, one client, ${SYNC} leads (target p50 ≤ 100 ms): p50 ${p.p50.toFixed(1)} ms, p95 ${p.p95.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms`,
    );
    const [{ deals }] = rowsOf<{ deals: number }>(await db2.execute(sql`select count(*)::int as deals from deals`));
    const [{ origins }] = rowsOf<{ origins: number }>(await db2.execute(sql`select count(distinct origin_lead_id)::int as origins from inbound_leads`));
    console.log(`Deals ${deals} for ${origins} distinct origin ids${deals === origins ? " (one each)" : " — NOT one each"}`);
    await closeDb();
  } finally {
    await worker?.stop();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
