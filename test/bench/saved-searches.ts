/**
 * Saved-search matching at scale (issue 37): 100,000 active saved searches over 100,000 listings of
 * one tenant on PostgreSQL (scratch database crm_bench_saved_searches). Prints:
 *  - matching one listing change (a price drop read from the outbox: cursor, candidate scan through
 *    saved_searches_candidates_idx, full filters in code, the site's predicates, hits): p50/p95/p99;
 *  - a burst of 1,000 listing changes: time until every hit is recorded, and the alerts then sent
 *    to a local SMTP server in a process of its own (BENCH_SEND alerts, default 2,000, timed; the
 *    rate gives the whole burst; BENCH_SEND=all sends all of it).
 *
 *   DATABASE_URL=postgres://postgres:postgres@localhost:5432/postgres npm run bench:saved-searches
 */
import { fork } from "node:child_process";
import os from "node:os";
import { sql } from "drizzle-orm";
import { closeDb, getDb, type Db } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { inTransaction } from "../../db/transaction";
import { createTenant } from "../../lib/admin/create-tenant";
import { resetConfigForTests } from "../../lib/config";
import { memberCtx } from "../../lib/context/verb-context";
import { authenticateApiKey } from "../../lib/auth/authenticate-key";
import { sendAlerts } from "../../lib/saved-searches/deliver";
import { matchSavedSearches, matchTenantBatch } from "../../lib/saved-searches/match";
import { reindexListings } from "../../lib/search/index-listings";
import { createSite } from "../../lib/sites/sites";
import { scratchDatabase } from "./http-load";
import { generateListingsSql, HOODS } from "./search-data";

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 100_000);
const SINGLE = Number(process.env.BENCH_RUNS ?? 300);
const BURST = Number(process.env.BENCH_BURST ?? 1000);
/** Alerts of the burst sent, timed (`all`: the whole burst). */
const SEND = process.env.BENCH_SEND === "all" ? Infinity : Number(process.env.BENCH_SEND ?? 2000);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const arr = (xs: string[]) =>
  sql`(array[${sql.join(
    xs.map((x) => sql`${x}`),
    sql`, `,
  )}]::text[])`;
const ms = (v: number) => `${v.toFixed(2)} ms`;

/** How many times each listing's price was dropped in this run, to put the prices back at the end (`restorePrices`). */
const dropped = new Map<string, number>();

/** A fabricated `listing.updated` price drop of the listing, as the listing verb writes it in its transaction. */
async function priceDrop(db: Db, tenantId: string, listingId: string) {
  dropped.set(listingId, (dropped.get(listingId) ?? 0) + 1);
  await db.execute(sql`
    with l as (update listings set price = price * 0.9 where id = ${listingId}::uuid returning id, stage, visibility, price)
    insert into events (tenant_id, event_name, entity_type, entity_id, data, old)
    select ${tenantId}::uuid, 'listing.updated', 'listing', l.id::text,
      jsonb_build_object('listing', jsonb_build_object('stage', l.stage, 'visibility', l.visibility, 'price', l.price::text)),
      jsonb_build_object('stage', l.stage, 'visibility', l.visibility, 'price', (l.price / 0.9)::text)
    from l`);
  await db.execute(sql`update search_documents set price = price * 0.9 where listing_id = ${listingId}::uuid`);
}

/**
 * The run's price drops undone (without events), so a reused database (BENCH_REUSE) keeps the
 * prices it was loaded with and every run matches and alerts a burst of the same size.
 */
async function restorePrices(db: Db) {
  if (!dropped.size) return;
  const ids = `{${[...dropped.keys()].join(",")}}`;
  const times = `{${[...dropped.values()].join(",")}}`;
  await db.execute(sql`
    with r as (select * from unnest(${ids}::uuid[], ${times}::int[]) as r(id, n))
    update listings l set price = round(l.price / power(0.9, r.n)) from r where l.id = r.id`);
  await db.execute(sql`
    with r as (select * from unnest(${ids}::uuid[], ${times}::int[]) as r(id, n))
    update search_documents d set price = round(d.price / power(0.9, r.n)) from r where d.listing_id = r.id`);
  dropped.clear();
}

const DOMAIN = "alerts-bench.localhost";

/** The tenant and site an earlier run loaded (BENCH_REUSE=1), if any. */
async function loaded(db: Db): Promise<{ tenantId: string; siteId: string } | undefined> {
  const [row] = rowsOf<{ tenant_id: string; id: string }>(await db.execute(sql`select tenant_id, id from sites where domain = ${DOMAIN}`));
  return row && { tenantId: row.tenant_id, siteId: row.id };
}

/** The tenant's listings generated inside PostgreSQL, indexed for search, and its published site. */
async function load(db: Db): Promise<{ tenantId: string; siteId: string }> {
  const t = await createTenant({ db }, { name: "Bench Alerts", owner: { name: "O", email: "owner@alerts-bench.example.com" } });
  const started = performance.now();
  await db.execute(generateListingsSql(t.tenantId, t.owner.userId, LISTINGS));
  const ids = rowsOf<{ id: string }>(await db.execute(sql`select id from listings where tenant_id = ${t.tenantId}::uuid order by id`)).map((r) => r.id);
  for (let i = 0; i < ids.length; i += 2000) await inTransaction(db, (tx) => reindexListings(tx, t.tenantId, ids.slice(i, i + 2000)));
  console.log(
    `${LISTINGS} listings generated and indexed in ${((performance.now() - started) / 1000).toFixed(0)} s (BENCH_REUSE=1 keeps them for the next run)`,
  );
  const site = await createSite(memberCtx(db, await authenticateApiKey(db, t.apiKey)), { name: "Bench", domain: DOMAIN, published: true });
  return { tenantId: t.tenantId, siteId: site.id };
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  if (!process.env.DATABASE_URL) throw new Error("Set DATABASE_URL to a PostgreSQL server (e.g. postgres://postgres:postgres@localhost:5432/postgres).");
  const reuse = Boolean(process.env.BENCH_REUSE);
  await scratchDatabase(process.env.BENCH_DB ?? "crm_bench_saved_searches", reuse);
  // The mail server in a process of its own, as in production (another machine): it does not
  // share this process's event loop with the sender.
  const smtp = fork(new URL("./smtp-sink.ts", import.meta.url).pathname, { execArgv: ["--import", "tsx"] });
  const port = await new Promise<number>((resolve, reject) => {
    smtp.once("message", (m) => resolve((m as { port: number }).port));
    smtp.once("exit", (code) => reject(new Error(`the SMTP sink exited (${code})`)));
  });
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  resetConfigForTests();
  await runMigrations();
  const db = await getDb();
  const { tenantId, siteId } = (reuse && (await loaded(db))) || (await load(db));
  if (process.env.BENCH_LOAD_ONLY) {
    await closeDb();
    smtp.disconnect();
    return console.log("Loaded (BENCH_LOAD_ONLY): run again with BENCH_REUSE=1 to measure.");
  }
  const ids = rowsOf<{ id: string }>(await db.execute(sql`select id from listings where tenant_id = ${tenantId}::uuid order by id`)).map((r) => r.id);
  // Each run saves its searches afresh (a reused database keeps only the listings and the site).
  // Truncated, not deleted: a delete leaves the tables' indexes holding the last run's 100,000
  // searches and their hits as dead entries (a hits primary key of 52 MB for 70,000 rows), which
  // every later run then paid for on each insert. Nothing references these three tables.
  await db.execute(sql`truncate saved_search_hits, saved_searches, saved_search_cursors`);
  const t = { tenantId };
  const site = { id: siteId };

  // Searches as visitors make them: a neighbourhood of the catalogue (or only its city), a type,
  // often a property type, a price band around what the area costs, sometimes a bedroom minimum.
  const started = performance.now();
  const hoods = HOODS.map((h) => h[0]);
  const cities = HOODS.map((h) => h[1]);
  const types = ["apartment", "house", "penthouse", "studio"];
  await db.execute(sql`
    insert into saved_searches (tenant_id, site_id, status, channel, frequency, filters, email, locale, link_base, listing_type, city_key,
      hood_key, min_bedrooms, property_type, min_price, max_price, consent_at, consent_source, confirmed_at)
    select ${t.tenantId}::uuid, ${site.id}::uuid, 'active', 'email', 'instant', f.filters, 'v' || n || '@bench.test', 'pt-BR',
      'http://alerts-bench.localhost', coalesce(f.filters->>'type', ''), lower(unaccent(coalesce(f.filters->>'city', ''))),
      lower(unaccent(coalesce(f.filters->>'neighborhood', ''))), coalesce((f.filters->>'bedrooms')::int, 0),
      coalesce(f.filters->>'propertyType', ''), (f.filters->>'minPrice')::bigint, (f.filters->>'maxPrice')::bigint, now(), '{"via":"bench"}', now()
    from generate_series(1, ${SEARCHES}) n,
    lateral (select jsonb_strip_nulls(jsonb_build_object(
      'type', case when n % 4 = 0 then 'rental' else 'sale' end,
      'city', ${arr(cities)}[1 + n % ${cities.length}],
      'neighborhood', case when n % 5 <> 0 then ${arr(hoods)}[1 + n % ${hoods.length}] end,
      'propertyType', case when n % 3 <> 0 then ${arr(types)}[1 + n % 4] end,
      'bedrooms', case when n % 2 = 0 then 1 + n % 4 end,
      'minPrice', case when n % 4 = 0 then 1000 + (n * 37) % 8000 else 200000 + (n * 7919) % 3000000 end,
      'maxPrice', case when n % 4 = 0 then 3000 + (n * 37) % 8000 else 500000 + (n * 7919) % 3000000 end
    )) as filters) f`);
  await db.execute(sql`insert into saved_search_cursors (tenant_id, last_seq) select ${t.tenantId}::uuid, coalesce(max(seq), 0) from events`);
  await db.execute(sql`vacuum analyze`);
  console.log(`${SEARCHES} saved searches inserted in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The run starts with no hits, and the analyze above recorded the hits table as empty: until
  // autovacuum's next analyze the planner would plan for an empty table. Some untimed changes and an
  // analyze give the statistics of a table in use, as autovacuum keeps them in production.
  for (let i = 0; i < 30; i++) {
    await priceDrop(db, t.tenantId, ids[(i * 6151 + 5) % ids.length]);
    await matchTenantBatch(db, t.tenantId);
  }
  await db.execute(sql`analyze saved_search_hits`);

  // One change at a time: the matcher's whole path for one outbox event.
  const times: number[] = [];
  let hits = 0;
  let cpu = 0;
  for (let i = 0; i < SINGLE; i++) {
    await priceDrop(db, t.tenantId, ids[(i * 7919) % ids.length]);
    const [t0, c0] = [performance.now(), process.cpuUsage()];
    const r = await matchTenantBatch(db, t.tenantId);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu += (c.user + c.system) / 1000;
    hits += r.due;
  }
  console.log(
    `Matching one listing change (${SINGLE} runs): p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))}, p99 ${ms(pct(times, 99))}; ` +
      `${(hits / SINGLE).toFixed(1)} hits a change; this process's CPU ${ms(cpu / SINGLE)} a change (load average ${os.loadavg()[0].toFixed(1)})`,
  );

  // A burst: 1,000 changes committed, then the matcher catches up.
  await db.execute(sql`update saved_search_hits set sent_at = now()`);
  for (let i = 0; i < BURST; i++) await priceDrop(db, t.tenantId, ids[(i * 104729 + 11) % ids.length]);
  const b0 = performance.now();
  while (await matchSavedSearches(db));
  const matched = performance.now() - b0;
  const [{ due, searches }] = rowsOf<{ due: number; searches: number }>(
    await db.execute(sql`select count(*)::int as due, count(distinct saved_search_id)::int as searches from saved_search_hits where sent_at is null`),
  );
  console.log(`Burst of ${BURST} changes: all hits recorded in ${(matched / 1000).toFixed(1)} s (${due} hits for ${searches} searches)`);
  let sent = 0;
  const s0 = performance.now();
  while (sent < Math.min(SEND, searches)) {
    const n = await sendAlerts(db, 50);
    if (!n) break;
    sent += n;
  }
  const sendMs = performance.now() - s0;
  const rate = sent / (sendMs / 1000);
  console.log(
    `Alerts sent to a local SMTP server (own process): ${sent} in ${(sendMs / 1000).toFixed(1)} s (${rate.toFixed(0)}/s, one process); ` +
      `the burst's ${searches} alerts take about ${(searches / rate / 60).toFixed(1)} min plus matching, ${((matched / 1000 + searches / rate) / 60).toFixed(1)} min in all`,
  );
  await restorePrices(db);
  await closeDb();
  smtp.disconnect();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
