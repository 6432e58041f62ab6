/**
 * Outbound delivery benchmark: 50 tenants, 20,000 queued events, a local receiver answering 200
 * (in a process of its own, which verifies every signature and checks that each event arrives
 * once and each tenant's events in order). Prints events per second end to end: from the moment
 * the workers are told to go until the receiver has the last event.
 *
 *   npm run bench:events                                  # embedded PGlite (in memory), in this process
 *   DATABASE_URL=postgres://... npm run bench:events      # PostgreSQL (a scratch database), one worker process
 *   BENCH_WORKERS=2 DATABASE_URL=postgres://... npm run bench:events   # two worker processes sharing the work
 *
 * BENCH_TENANTS, BENCH_EVENTS and BENCH_DB (the scratch database's name) change the defaults.
 */
import { type ChildProcess, fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { config } from "../../lib/config";
import { createTenant } from "../../lib/admin/create-tenant";
import { deliverDueEvents } from "../../lib/event-delivery/deliver";

const TENANTS = Number(process.env.BENCH_TENANTS ?? 50);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const SECRET = "bench-secret";

type Stats = { received: number; firstAt: number; lastAt: number; duplicates: number; outOfOrder: number; badSignatures: number; cpuMs: number };
type Totals = { cycles: number; tenants: number; delivered: number; failed: number; dropped: number; cpuMs: number };

/**
 * CPU time (ms) the PostgreSQL backends serving the bench's database have used so far, by pid,
 * read from /proc (a local server): the database's share of the cost per event, which the
 * machine's load does not change the way it changes wall-clock figures. Empty where /proc or the
 * server is elsewhere.
 */
async function backendCpu(db: Awaited<ReturnType<typeof getDb>>): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!process.env.DATABASE_URL || !fs.existsSync("/proc/self/stat")) return out;
  const pids = rowsOf<{ pid: number }>(await db.execute(sql`select pid from pg_stat_activity where datname = current_database()`));
  for (const { pid } of pids) {
    try {
      // Fields 14 and 15 (utime, stime) in clock ticks, after the command name in parentheses.
      const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      out.set(pid, ((Number(f[11]) + Number(f[12])) * 1000) / 100);
    } catch {
      // Not on this machine, or gone.
    }
  }
  return out;
}

async function scratchDatabase(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    if (WORKERS > 1) throw new Error("BENCH_WORKERS > 1 needs PostgreSQL (DATABASE_URL): the embedded database admits one process.");
    process.env.PGLITE_DIR = "memory://";
    return;
  }
  const name = process.env.BENCH_DB ?? "crm_bench_events";
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  process.env.DATABASE_URL = u.toString();
  process.env.DATABASE_POOL_SIZE ??= "8";
}

/** A child running a bench script with tsx, talking over IPC. */
function child(script: string): ChildProcess {
  return fork(script, [], { execArgv: ["--import", "tsx"], env: { ...process.env, BENCH_SECRET: SECRET }, stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

function nextMessage<T>(c: ChildProcess, pick: (m: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a bench child exited with ${code}`));
    const onMessage = (m: unknown) => {
      const v = pick(m);
      if (v === undefined) return;
      c.off("message", onMessage);
      c.off("exit", onExit);
      resolve(v);
    };
    c.on("message", onMessage);
    c.once("exit", onExit);
  });
}

async function seed(url: string): Promise<{ total: number; tenantIds: string[] }> {
  await runMigrations();
  const db = await getDb();
  console.log(`Seeding ${TENANTS} tenants and ${EVENTS} queued events (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})...`);
  const tenantIds: string[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const t = await createTenant({ db }, { name: `Bench ${i}`, owner: { name: "Owner", email: `owner${i}@bench.example.com` } });
    tenantIds.push(t.tenantId);
    await db.execute(
      sql`insert into webhook_settings (tenant_id, url, events, hmac, secret) values (${t.tenantId}, ${url}, array['deal.created'], true, ${SECRET})`,
    );
  }
  const perTenant = Math.ceil(EVENTS / TENANTS);
  for (const tenantId of tenantIds) {
    // `n` is the event's position in its tenant's queue: the receiver checks that it only grows by one.
    await db.execute(sql`
      with e as (
        insert into events (tenant_id, event_name, entity_type, entity_id, user_id, data, old, occurred_at)
        select ${tenantId}, 'deal.created', 'deal', gen_random_uuid()::text, null,
               jsonb_build_object('n', n, 'entity', jsonb_build_object('title', 'Deal ' || n, 'amount', '450000.00')), null, now()
        from generate_series(1, ${perTenant}) n
        returning id, tenant_id, seq
      )
      insert into event_deliveries (event_id, tenant_id) select id, tenant_id from e order by seq`);
  }
  // A production queue has statistics; a scratch database seeded a moment ago may not have them
  // yet (autovacuum analyses it whenever it comes by), and the claim's plans depend on them.
  if (process.env.DATABASE_URL) await db.execute(sql`analyze event_deliveries, events, delivery_attempts`);
  return { total: perTenant * TENANTS, tenantIds };
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  await scratchDatabase();
  const receiver = child("test/bench/events-receiver.ts");
  const { port } = await nextMessage(receiver, (m) => (m && typeof m === "object" && "port" in m ? (m as { port: number }) : undefined));
  const stats = async () => {
    receiver.send("stats");
    return nextMessage(receiver, (m) => (m && typeof m === "object" && "stats" in m ? (m as { stats: Stats }).stats : undefined));
  };
  const { total } = await seed(`http://127.0.0.1:${port}/hooks`);
  const db = await getDb();

  let started: number;
  const totals: Totals[] = [];
  let pg0 = new Map<number, number>();
  let pgMs = 0;
  const receiverCpu0 = (await stats()).cpuMs;
  const load0 = os.loadavg()[0];
  if (process.env.DATABASE_URL) {
    const workers = Array.from({ length: WORKERS }, () => child(process.env.BENCH_WORKER_SCRIPT ?? "test/bench/events-worker.ts"));
    await Promise.all(workers.map((w) => nextMessage(w, (m) => (m === "ready" ? true : undefined))));
    pg0 = await backendCpu(db);
    started = Date.now();
    for (const w of workers) w.send("go");
    for (let s = await stats(); s.received < total; s = await stats()) {
      if (process.stdout.isTTY) process.stdout.write(`\r  ${s.received}/${total} delivered`);
      await new Promise((ok) => setTimeout(ok, 200));
    }
    const pg1 = await backendCpu(db);
    pgMs = [...pg1].reduce((sum, [pid, ms]) => sum + ms - (pg0.get(pid) ?? 0), 0);
    const reports = workers.map((w) => nextMessage(w, (m) => (m && typeof m === "object" && "totals" in m ? (m as { totals: Totals }).totals : undefined)));
    for (const w of workers) w.send("stop");
    totals.push(...(await Promise.all(reports)));
  } else {
    started = Date.now();
    const t: Totals = { cycles: 0, tenants: 0, delivered: 0, failed: 0, dropped: 0, cpuMs: 0 };
    const cpu0 = process.cpuUsage();
    while ((await stats()).received < total) {
      const r = await deliverDueEvents(db, { retrySeconds: 60 });
      t.cycles++;
      t.tenants += r.tenants;
      t.delivered += r.delivered;
      t.failed += r.failed;
      if (!r.delivered && !r.failed) break;
    }
    const cpu = process.cpuUsage(cpu0);
    t.cpuMs = (cpu.user + cpu.system) / 1000;
    totals.push(t);
  }
  const s = await stats();
  const seconds = (s.lastAt - started) / 1000;
  console.log("");
  console.log(`Delivered ${s.received} of ${total} events in ${seconds.toFixed(2)} s: ${(s.received / seconds).toFixed(0)} events/s end to end`);
  console.log(
    `${WORKERS} worker${WORKERS > 1 ? "s" : ""} (${TENANTS} tenants, at most ${config().EVENTS_DELIVERY_CONCURRENCY} served at once by each): ${totals
      .map((t, i) => `#${i + 1} ${t.delivered} delivered in ${t.cycles} cycles`)
      .join("; ")}`,
  );

  const perEvent = (ms: number) => `${((ms * 1000) / Math.max(1, s.received)).toFixed(0)} µs`;
  const workerMs = totals.reduce((sum, t) => sum + t.cpuMs, 0);
  const receiverMs = s.cpuMs - receiverCpu0;
  console.log(
    `CPU per event: workers ${perEvent(workerMs)}, receiver ${perEvent(receiverMs)}${pgMs ? `, PostgreSQL ${perEvent(pgMs)}` : ""}; ` +
      `load average ${load0.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end (${os.cpus().length} cores)`,
  );

  // What the database recorded must match what the receiver saw: each event delivered once.
  const [db0] = rowsOf<{ delivered: number; attempts: number; attempted: number }>(
    await db.execute(sql`
      select (select count(*) from event_deliveries where state = 'delivered')::int as delivered,
             (select count(*) from delivery_attempts)::int as attempts,
             (select count(distinct event_id) from delivery_attempts)::int as attempted`),
  );
  const problems = [
    s.received !== total && `the receiver got ${s.received} requests for ${total} events`,
    s.duplicates && `${s.duplicates} events delivered more than once`,
    s.outOfOrder && `${s.outOfOrder} events out of their tenant's order`,
    s.badSignatures && `${s.badSignatures} bad signatures`,
    db0.delivered !== total && `${db0.delivered} events recorded delivered of ${total}`,
    db0.attempts !== db0.attempted && `${db0.attempts - db0.attempted} extra attempts recorded`,
  ].filter(Boolean);
  console.log(
    problems.length ? `PROBLEMS: ${problems.join("; ")}` : "Checked: every event once, in each tenant's order, signatures valid, all recorded delivered.",
  );
  receiver.send("stop");
  await closeDb();
  process.exit(problems.length ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
