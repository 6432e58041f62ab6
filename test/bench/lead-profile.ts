/**
 * Where a lead's time goes, statement by statement (in-process, no HTTP): stores N leads with
 * `receiveLead`, then processes them one after another with `processLead`, timing every statement
 * the driver sends (round trip as the process sees it) and the whole per-lead wall time.
 *
 *   DATABASE_URL=postgres://... BENCH_DB=crm_prof_leads npx tsx test/bench/lead-profile.ts   # PROFILE_LEADS=500
 */
import { drizzle } from "drizzle-orm/postgres-js";
import { closeDb, postgresClient, setDbForTests, type Db } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import * as schema from "../../db/schema";
import { authenticateApiKey } from "../../lib/auth/authenticate-key";
import { memberCtx } from "../../lib/context/verb-context";
import { channelCaller } from "../../lib/leads/inbound/channel-caller";
import { receiveLead } from "../../lib/leads/inbound/receive-lead";
import { processLeads } from "../../lib/leads/inbound/process-batch";
import { processLead } from "../../lib/leads/inbound/process-lead";
import { createChannel } from "../../lib/leads/marketing-channels";
import { createMember } from "../../lib/tenants/members";
import { createTenant } from "../../lib/admin/create-tenant";
import { scratchDatabase } from "./http-load";

const N = Number(process.env.PROFILE_LEADS ?? 500);
type Stat = { n: number; ms: number };
let stats = new Map<string, Stat>();
let count = 0;

/** Times each statement from the moment it is awaited to its answer. */
function instrument(sqlObj: any): any {
  const unsafe = sqlObj.unsafe.bind(sqlObj);
  sqlObj.unsafe = (q: string, params?: unknown[], opts?: unknown) => {
    const query = unsafe(q, params, opts);
    const then = query.then.bind(query);
    // biome-ignore lint/suspicious/noThenProperty: wraps the driver's own thenable query to time it
    query.then = (ok: any, ko: any) => {
      const t0 = performance.now();
      count++;
      return then((v: unknown) => {
        const key = q.replace(/\s+/g, " ").slice(0, 110);
        const s = stats.get(key) ?? { n: 0, ms: 0 };
        s.n++;
        s.ms += performance.now() - t0;
        stats.set(key, s);
        return ok ? ok(v) : v;
      }, ko);
    };
    return query;
  };
  const begin = sqlObj.begin?.bind(sqlObj);
  if (begin) sqlObj.begin = (...a: any[]) => begin(...a.slice(0, -1), (tx: any) => a.at(-1)(instrument(tx)));
  const savepoint = sqlObj.savepoint?.bind(sqlObj);
  if (savepoint) sqlObj.savepoint = (...a: any[]) => savepoint(...a.slice(0, -1), (tx: any) => a.at(-1)(instrument(tx)));
  return sqlObj;
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  process.env.JOBS_RUNNER = "off";
  const url = await scratchDatabase(process.env.BENCH_DB ?? "crm_prof_leads", false);
  await runMigrations();
  await closeDb();
  const client = process.env.PROFILE_RAW ? postgresClient(url, 4) : instrument(postgresClient(url, 4));
  const db = drizzle({ client, schema }) as unknown as Db;
  setDbForTests(db, () => client.end(), "postgres");
  const t = await createTenant({ db }, { name: "Prof", owner: { name: "Dona", email: "dona@prof.example.com" } });
  const ctx = memberCtx(db, await authenticateApiKey(db, t.apiKey));
  const queue: string[] = [];
  for (let i = 0; i < 5; i++) queue.push((await createMember(ctx, { name: `Corretor ${i}`, email: `c${i}@prof.example.com` })).id);
  const channel = await createChannel(ctx, { name: "Portal", kind: "portal", queue });
  const body = (i: number) =>
    JSON.stringify({
      contactName: `Lead ${i}`,
      phone: `+55119${String(10_000_000 + i).slice(-8)}`,
      businessType: i % 3 ? "sale" : "rent",
      utmSource: "portal",
      message: "Tenho interesse",
      bedrooms: 2 + (i % 3),
      originLeadId: `o-${i}`,
    });
  const ids: string[] = [];
  const report = (label: string, wall: number, n = N) => {
    console.log(`\n${label}: ${(wall / n).toFixed(2)} ms per lead wall, ${(count / n).toFixed(1)} statements per lead`);
    const rows = [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms);
    const total = rows.reduce((s, [, v]) => s + v.ms, 0);
    console.log(`  in statements: ${(total / n).toFixed(2)} ms per lead`);
    for (const [k, v] of rows.slice(0, 30)) console.log(`  ${(v.n / n).toFixed(2).padStart(5)}× ${(v.ms / v.n).toFixed(3).padStart(7)} ms  ${k}`);
  };
  stats = new Map();
  count = 0;
  let t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const ctx = await channelCaller(db, channel.pathToken, { fresh: true });
    await receiveLead(ctx, { rawBody: Buffer.from(body(i)), destination: null, sync: null, trace: { "content-type": "application/json" } });
  }
  report("accept (receiveLead)", performance.now() - t0);
  const leadIds = (await db.select({ id: schema.inboundLeads.id }).from(schema.inboundLeads)).map((r) => r.id);
  ids.push(...leadIds);
  stats = new Map();
  count = 0;
  t0 = performance.now();
  // One by one (`processLead`, as a sync request does) for the first half; in the job's batches of
  // 50 (`processLeads`) for the second.
  const half = Math.floor(ids.length / 2);
  for (const id of ids.slice(0, half)) {
    const r = await processLead(db, id);
    if (r.status !== "processed") throw new Error(`lead ${id}: ${r.status} ${r.lead?.error}`);
  }
  report("process one by one (processLead)", performance.now() - t0, half);
  stats = new Map();
  count = 0;
  t0 = performance.now();
  for (let i = half; i < ids.length; i += 50) {
    for (const r of await processLeads(db, ids.slice(i, i + 50)))
      if (r.status !== "processed") throw new Error(`lead ${r.lead?.id}: ${r.status} ${r.lead?.error}`);
  }
  report("process in batches of 50 (processLeads)", performance.now() - t0, ids.length - half);
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
