/**
 * Outbound delivery benchmark: 50 tenants, 20,000 queued events, a local receiver answering 200.
 * Prints events per second end to end and the time of each delivery cycle.
 *
 *   npm run bench:events                                  # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npm run bench:events      # PostgreSQL (uses a scratch database)
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { config } from "../../lib/config";
import { deliverDueEvents } from "../../lib/event-delivery/deliver";
import { createTenant } from "../../lib/admin/create-tenant";

const TENANTS = Number(process.env.BENCH_TENANTS ?? 50);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);

async function scratchDatabase(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
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
  process.env.DATABASE_POOL_SIZE ??= "24";
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  await scratchDatabase();
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;

  await runMigrations();
  const db = await getDb();
  console.log(`Seeding ${TENANTS} tenants and ${EVENTS} queued events (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})...`);
  const tenantIds: string[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const t = await createTenant({ db }, { name: `Bench ${i}`, owner: { name: "Owner", email: `owner${i}@bench.example.com` } });
    tenantIds.push(t.tenantId);
    await db.execute(
      sql`insert into webhook_settings (tenant_id, url, events, hmac, secret) values (${t.tenantId}, ${url}, array['deal.created'], true, 'bench-secret')`,
    );
  }
  const perTenant = Math.ceil(EVENTS / TENANTS);
  for (const tenantId of tenantIds) {
    await db.execute(sql`
      with e as (
        insert into events (tenant_id, event_name, entity_type, entity_id, user_id, data, old, occurred_at)
        select ${tenantId}, 'deal.created', 'deal', gen_random_uuid()::text, null,
               jsonb_build_object('entity', jsonb_build_object('title', 'Deal ' || n, 'amount', '450000.00')), null, now()
        from generate_series(1, ${perTenant}) n
        returning id, tenant_id, seq
      )
      insert into event_deliveries (event_id, tenant_id) select id, tenant_id from e order by seq`);
  }

  const total = perTenant * TENANTS;
  const started = performance.now();
  let cycles = 0;
  const cycleTimes: number[] = [];
  while (received < total) {
    const c0 = performance.now();
    const r = await deliverDueEvents(db, { retrySeconds: 60 });
    if (process.env.BENCH_DEBUG) console.log(r);
    cycleTimes.push(performance.now() - c0);
    cycles++;
    if (r.delivered === 0 && r.failed === 0) break;
    process.stdout.write(`\r  cycle ${cycles}: ${received}/${total} delivered`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log("");
  console.log(`Delivered ${received} of ${total} events in ${seconds.toFixed(2)} s: ${(received / seconds).toFixed(0)} events/s end to end`);
  console.log(`Cycles: ${cycles}; cycle time ${cycleTimes.map((t) => `${(t / 1000).toFixed(2)} s`).join(", ")}`);
  console.log(`Per event: ${((seconds * 1000) / received).toFixed(2)} ms (${TENANTS} tenants, at most ${config().EVENTS_DELIVERY_CONCURRENCY} served at once)`);
  server.close();
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
