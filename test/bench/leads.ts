/**
 * Lead intake benchmark on PostgreSQL: the production build with its embedded job runner takes a
 * burst of leads from 20 concurrent clients (some repeating an `originLeadId`), answers 202 after
 * storing each, and processes them into deals in the background; then `sync=deal` latency.
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
import { createTenant } from "../../lib/tenants/create-tenant";
import { spawn } from "node:child_process";
import { fmt, loadClient, percentiles, scratchDatabase, startServer } from "./http-load";

const LEADS = Number(process.env.BENCH_LEADS ?? 5000);
const SYNC = Number(process.env.BENCH_SYNC ?? 300);
const CLIENTS = 20;
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
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("jobs worker listening") && resolve({ stop: async () => { stopping = true; child.kill("SIGTERM"); await exited; } }));
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
  const worker = JOBS === "worker" ? await startJobsWorker(dbUrl).catch(async (err) => { await server.stop(); throw err; }) : undefined;
  process.once("SIGINT", () => void server.stop().then(() => process.exit(1)));
  console.log(JOBS === "worker" ? "Jobs in their own process (npm run jobs; server JOBS_RUNNER=worker)" : "Jobs in the server's embedded runner (JOBS_RUNNER=embedded)");
  const { send, hammer } = loadClient(CLIENTS);
  const url = `${server.base}/api/webhooks/channels/${channel.pathToken}`;
  const lead = (i: number) =>
    JSON.stringify({
      contactName: `Lead ${i}`, phone: `+55119${String(10_000_000 + Math.abs(i)).slice(-8)}`, businessType: i % 3 ? "sale" : "rent",
      utmSource: "portal", message: "Tenho interesse", bedrooms: 2 + (Math.abs(i) % 3),
      // One lead in ten repeats an earlier origin id, as portals retry.
      originLeadId: `o-${i % 10 === 9 ? i - 1 : i}`,
    });
  try {
    // The floor of the framework in the same run: Next.js answering its cheapest route (liveness,
    // no database) to the same 20 clients.
    const floor = await hammer(3000, () => send(`${server.base}/api/health`), (s) => s === 200, 0);
    console.log(`Next.js route with no work (/api/health, ${CLIENTS} clients, same server): ${fmt(floor)}`);
    const db2 = await getDb();
    const count = async () =>
      rowsOf<{ stored: number; processed: number }>(
        await db2.execute(sql`select count(*)::int as stored, count(*) filter (where status = 'processed')::int as processed from inbound_leads`),
      )[0];
    const started = performance.now();
    const accepted = await hammer(LEADS, (i) => send(url, { method: "POST", body: lead(i) }), (s) => s === 202 || s === 200, 0);
    console.log(`Accepted ${LEADS} posted leads (${CLIENTS} clients, target ≥ 500 leads/s, ack p99 ≤ 50 ms): ${fmt(accepted)}`);
    const burstEnd = { at: performance.now(), ...(await count()) };
    let counts = burstEnd;
    while (counts.processed < counts.stored) {
      await new Promise((r) => setTimeout(r, 200));
      counts = { at: performance.now(), ...(await count()) };
    }
    const seconds = (counts.at - started) / 1000;
    const [{ deals }] = rowsOf<{ deals: number }>(await db2.execute(sql`select count(*)::int as deals from deals`));
    console.log(
      `Processed end to end: ${counts.processed} leads (${LEADS - counts.stored} repeats folded) into ${deals} deals in ${seconds.toFixed(1)} s from the first post: ` +
        `${(counts.processed / seconds).toFixed(0)} leads/s (target ≥ 200)`,
    );
    const drain = (counts.at - burstEnd.at) / 1000;
    console.log(
      `  ${burstEnd.processed} processed while the posts came in; the other ${counts.processed - burstEnd.processed} after the last post, in ${drain.toFixed(1)} s: ` +
        `${((counts.processed - burstEnd.processed) / Math.max(drain, 0.001)).toFixed(0)} leads/s with the server free`,
    );
    const times: number[] = [];
    for (let i = 0; i < SYNC; i++) {
      const t0 = performance.now();
      const res = await send(`${url}?sync=deal`, { method: "POST", body: lead(1_000_000 + i) });
      if (res.status !== 200) throw new Error(`sync=deal answered ${res.status}`);
      times.push(performance.now() - t0);
    }
    const p = percentiles(times);
    console.log(`sync=deal, one client, ${SYNC} leads (target p50 ≤ 100 ms): p50 ${p.p50.toFixed(1)} ms, p95 ${p.p95.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms`);
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
