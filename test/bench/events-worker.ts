/**
 * One delivery worker of `bench:events` (`BENCH_WORKERS=2`: two of them, as two nodes' jobs
 * workers): once told `go`, it runs delivery cycles on the shared PostgreSQL database, as the
 * deliver-events job does, until told `stop`, then reports what it delivered.
 */
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "../../db/client";
import { config } from "../../lib/config";
import { deliverDueEvents } from "../../lib/event-delivery/deliver";

async function main() {
  const db = await getDb();
  await db.execute(sql`select 1`);
  const totals = { cycles: 0, tenants: 0, delivered: 0, failed: 0, dropped: 0, cpuMs: 0 };
  let stopped = false;
  const go = new Promise<void>((resolve) =>
    process.on("message", (m) => {
      if (m === "go") resolve();
      if (m === "stop") stopped = true;
    }),
  );
  process.send?.("ready");
  await go;
  const cpu0 = process.cpuUsage();
  while (!stopped) {
    const r = await deliverDueEvents(db, { retrySeconds: 60 });
    totals.cycles++;
    totals.tenants += r.tenants;
    totals.delivered += r.delivered;
    totals.failed += r.failed;
    totals.dropped += r.dropped;
    // Nothing due (or the other worker has it): look again after the embedded job's poll interval
    // (1 s), as a node's worker does. Polling every 20 ms cost the idle worker's claims as much
    // database CPU as a few thousand deliveries.
    if (!r.delivered && !r.failed) await new Promise((ok) => setTimeout(ok, config().EVENTS_POLL_INTERVAL_MS));
  }
  const cpu = process.cpuUsage(cpu0);
  totals.cpuMs = (cpu.user + cpu.system) / 1000;
  process.send?.({ totals });
  await closeDb();
  if (process.connected) process.disconnect();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
