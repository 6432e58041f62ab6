/**
 * Search benchmark: 100,000 listings for one tenant and 100,000 spread over nine others, then a
 * fixed mix of 1,000 queries (text, typed filters, raw filter, geo, facets, sort) through the
 * engine, and the REST endpoint of a production build with 10 concurrent clients.
 *
 *   npm run build && DATABASE_URL=postgres://... npm run bench:search
 *   BENCH_LISTINGS=20000 npm run bench:search      # smaller run (PGlite when DATABASE_URL is unset)
 *   BENCH_HTTP_ONLY=1 BENCH_REUSE=1 ...            # the HTTP runs only, on the loaded database
 *   BENCH_HTTP_REQUESTS=2000                       # timed HTTP requests per run (after as many untimed)
 */
import os from "node:os";
import { SingleBar, Presets } from "cli-progress";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { inTransaction } from "../../db/transaction";
import { closeDb, getDb, type Db } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import type { SearchEngine, SearchScope } from "../../lib/search/engine";
import { MemorySearchEngine } from "../../lib/search/memory/memory-engine";
import { reindexListings } from "../../lib/search/index-listings";
import { docColumns, documentFromRow } from "../../lib/search/stored-document";
import { toSearchRequest, type RawSearchParams } from "../../lib/search/params";
import { CachedSearchEngine } from "../../lib/search/cached-engine";
import { scopeVersion } from "../../lib/search/index-version";
import { PostgresSearchEngine } from "../../lib/search/postgres/postgres-engine";
import { createTenant } from "../../lib/admin/create-tenant";
import { fmt, loadClient, startServer } from "./http-load";
import { HOODS, generateListingsSql } from "./search-data";
import { ceilingQuery } from "./search-ceiling";
import { loadOrama, ORAMA_GAPS, oramaQuery, oramaSearch } from "./search-orama";

const MAIN = Number(process.env.BENCH_LISTINGS ?? 100_000);
const OTHERS = 9;
const QUERIES = Number(process.env.BENCH_QUERIES ?? 1000);
const HTTP_PORT = Number(process.env.BENCH_PORT ?? 3210);
/** Timed HTTP requests per cache setting (the mix holds 40 distinct queries, repeated). */
const HTTP_REQUESTS = Number(process.env.BENCH_HTTP_REQUESTS ?? 2000);
/** The scratch database (dropped and recreated unless BENCH_REUSE=1). */
const BENCH_DB = process.env.BENCH_DB ?? "crm_bench_search";

async function scratchDatabase(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.env.PGLITE_DIR = "memory://";
    return undefined;
  }
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  // BENCH_REUSE=1 keeps the database of the previous run (for tuning queries without reloading).
  if (!process.env.BENCH_REUSE) {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${BENCH_DB}" WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE "${BENCH_DB}"`);
  }
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${BENCH_DB}`;
  process.env.DATABASE_URL = u.toString();
  return u.toString();
}

async function load(db: Db) {
  const main = await createTenant({ db }, { name: "Bench Main", owner: { name: "O", email: "main@bench.example.com" } });
  const others = [];
  for (let i = 0; i < OTHERS; i++) others.push(await createTenant({ db }, { name: `Bench ${i}`, owner: { name: "O", email: `o${i}@bench.example.com` } }));
  console.log(`Generating ${MAIN} listings for the main tenant and ${MAIN} over ${OTHERS} others...`);
  await db.execute(generateListingsSql(main.tenantId, main.owner.userId, MAIN));
  for (const o of others) await db.execute(generateListingsSql(o.tenantId, o.owner.userId, Math.ceil(MAIN / OTHERS)));
  const bar = new SingleBar({ format: "Indexing |{bar}| {value}/{total} documents | ETA {eta}s" }, Presets.shades_classic);
  const all = rowsOf<{ id: string; tenant_id: string }>(await db.execute(sql`select id, tenant_id from listings order by tenant_id, id`));
  bar.start(all.length, 0);
  for (let i = 0; i < all.length; i += 1000) {
    const chunk = all.slice(i, i + 1000);
    const byTenant = new Map<string, string[]>();
    for (const r of chunk) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r.id]);
    await inTransaction(db, async (tx) => {
      for (const [tenantId, ids] of byTenant) await reindexListings(tx, tenantId, ids);
    });
    bar.update(Math.min(i + 1000, all.length));
  }
  bar.stop();
  await db.execute(sql`vacuum analyze`);
  return { main, others };
}

/**
 * The engine the server runs: the in-memory index for the tenant (filters, facets, sorts), PostgreSQL
 * for text; `BENCH_ENGINE=postgres` measures PostgreSQL alone. The index is loaded once, before the runs.
 */
let memory: MemorySearchEngine | null = null;
function engineFor(db: Db): SearchEngine {
  const pg = new PostgresSearchEngine(async () => db);
  if (process.env.BENCH_ENGINE === "postgres") return pg;
  memory ??= new MemorySearchEngine(pg, async () => db, { minDocs: 0, maxDocs: 10_000_000 });
  return memory;
}

async function preloadMemory(db: Db, tenantId: string) {
  if (process.env.BENCH_ENGINE === "postgres") return console.log("Engine: PostgreSQL only (BENCH_ENGINE=postgres)");
  engineFor(db);
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const ix = await memory!.preload(tenantId);
  const ms = performance.now() - t0;
  global.gc?.();
  const heap = process.memoryUsage().heapUsed - heap0;
  console.log(
    `In-memory index: ${ix.count} documents loaded in ${(ms / 1000).toFixed(1)} s, heap +${(heap / 1024 / 1024).toFixed(0)} MB (${(heap / ix.count).toFixed(0)} bytes a listing; typed arrays ${(ix.typedBytes() / 1024 / 1024).toFixed(0)} MB)`,
  );
}

/** The fixed query mix: the same 1,000 queries on every run. */
function queryMix(n: number): RawSearchParams[] {
  const words = [
    "apartamento",
    "casa pinheiros",
    "cobertura moema",
    "studio mobiliado",
    "varanda gourmet",
    "piscina",
    "jardins",
    "copacabana vista mar",
    "savassi",
    "reformado",
  ];
  const out: RawSearchParams[] = [];
  for (let i = 0; i < n; i++) {
    const h = HOODS[i % HOODS.length];
    switch (i % 8) {
      case 0:
        out.push({ q: words[i % words.length], query_by: "title,description,location_neighborhood", per_page: 20 });
        break;
      case 1:
        out.push({ q: "*", filter_by: `bedrooms:>=${1 + (i % 4)} && price:<${500000 + (i % 10) * 200000} && listingType:=sale`, per_page: 20 });
        break;
      case 2:
        out.push({ q: "*", filter_by: `location_city:=\`${h[1]}\` && hasPhotos:true && totalArea:[50..${100 + (i % 5) * 40}]`, per_page: 20 });
        break;
      case 3:
        out.push({
          q: "*",
          filter_by: `location_neighborhood:=[\`${h[0]}\`, \`${HOODS[(i + 3) % HOODS.length][0]}\`] && bedrooms:[2..4] && propertyType:!=studio`,
          per_page: 20,
        });
        break;
      case 4:
        out.push({ q: "*", filter_by: `location:(${h[3]}, ${h[4]}, ${1 + (i % 3)} km)`, sort_by: `location(${h[3]}, ${h[4]}):asc`, per_page: 20 });
        break;
      case 5:
        out.push({ q: "*", filter_by: `location_state:=${h[2]}`, facet_by: "location_city,bedrooms,propertyType", per_page: 10 });
        break;
      case 6:
        out.push({ q: "*", filter_by: `location_city:=\`${h[1]}\``, sort_by: "price:asc", per_page: 20, page: 1 + (i % 5) });
        break;
      case 7:
        out.push({
          q: words[(i + 3) % words.length],
          query_by: "title,location_neighborhood,location_city",
          filter_by: `bedrooms:>=2`,
          facet_by: "location_neighborhood",
          per_page: 20,
        });
        break;
    }
  }
  return out;
}

function pct(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
function report(label: string, times: number[], wallMs: number) {
  const s = [...times].sort((a, b) => a - b);
  console.log(
    `${label}: ${times.length} queries, p50 ${pct(s, 50).toFixed(1)} ms, p95 ${pct(s, 95).toFixed(1)} ms, p99 ${pct(s, 99).toFixed(1)} ms, ${(times.length / (wallMs / 1000)).toFixed(0)} queries/s`,
  );
}

async function engineRun(db: Db, scope: SearchScope, cached = false) {
  const raw = engineFor(db);
  const engine = cached ? new CachedSearchEngine(raw, (s) => scopeVersion(db, s), 600_000) : raw;
  const mix = queryMix(QUERIES);
  for (const p of mix.slice(0, 50)) await engine.search(scope, toSearchRequest(p, { maxPerPage: 250 })); // warm-up
  const times: number[] = [];
  const started = performance.now();
  for (const p of mix) {
    const t0 = performance.now();
    await engine.search(scope, toSearchRequest(p, { maxPerPage: 250 }));
    times.push(performance.now() - t0);
  }
  report(
    `Engine (${process.env.BENCH_ENGINE === "postgres" ? "PostgreSQL" : "in-memory index, text included"}, one client${cached ? ", with the result cache" : ", no cache"}, load ${loadavg()})`,
    times,
    performance.now() - started,
  );
}

const KIND_NAMES = [
  "broad text",
  "type + price + bedrooms",
  "city + photos + area",
  "neighborhoods + bedrooms + type",
  "geo radius + distance sort",
  "state + 3 facets",
  "city + price sort",
  "text + filter + facet",
];
const p50p95 = (t: number[]) => {
  const s = [...t].sort((a, b) => a - b);
  return `${pct(s, 50).toFixed(1)} / ${pct(s, 95).toFixed(1)}`;
};

/**
 * The engine (no cache), the ceiling (hand-written SQL, search-ceiling.ts) and Orama
 * (search-orama.ts) on the same mix, query by query in the same order, so all three see the same
 * load on this shared machine. Prints the whole mix and every kind.
 */
async function sideBySide(db: Db, dbUrl: string | undefined, scope: SearchScope) {
  if (!dbUrl) return console.log("Side by side: skipped (needs DATABASE_URL).");
  const client = postgres(dbUrl, { max: 4, onnotice: () => {} });
  const docs = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select ${docColumns("d")} from search_index d where d.tenant_id = ${scope.tenantId}::uuid`),
  ).map(documentFromRow);
  const n = docs.length;
  const orama = await loadOrama(docs);
  docs.length = 0;
  console.log(
    `Orama (@orama/orama, in this process): loaded ${n} documents in ${(orama.loadMs / 1000).toFixed(1)} s, heap +${orama.heapMb.toFixed(0)} MB${(globalThis as { gc?: unknown }).gc ? "" : " (approximate: run with NODE_OPTIONS=--expose-gc)"}`,
  );
  const engine = engineFor(db);
  const mix = queryMix(QUERIES);
  for (const p of mix.slice(0, 50)) {
    await engine.search(scope, toSearchRequest(p, { maxPerPage: 250 }));
    await ceilingQuery(client, scope.tenantId, p);
    await oramaSearch(orama.db, oramaQuery(p));
  }
  const t = { engine: [] as number[][], ceiling: [] as number[][], orama: [] as number[][] };
  for (const k of Object.keys(t) as (keyof typeof t)[]) t[k] = KIND_NAMES.map(() => []);
  for (let i = 0; i < mix.length; i++) {
    const p = mix[i];
    const k = i % 8;
    let t0 = performance.now();
    await engine.search(scope, toSearchRequest(p, { maxPerPage: 250 }));
    t.engine[k].push(performance.now() - t0);
    t0 = performance.now();
    await ceilingQuery(client, scope.tenantId, p);
    t.ceiling[k].push(performance.now() - t0);
    t0 = performance.now();
    await oramaSearch(orama.db, oramaQuery(p));
    t.orama[k].push(performance.now() - t0);
  }
  await client.end();
  const all = (x: number[][]) => x.flat().sort((a, b) => a - b);
  const line = (label: string, x: number[][]) => {
    const s = all(x);
    return `${label}: p50 ${pct(s, 50).toFixed(1)} ms, p95 ${pct(s, 95).toFixed(1)} ms, p99 ${pct(s, 99).toFixed(1)} ms`;
  };
  console.log(`Side by side, ${mix.length} queries, interleaved (engine without cache, ceiling, Orama), load ${loadavg()}`);
  console.log(`  ${line("engine (no cache)", t.engine)}`);
  console.log(`  ${line("ceiling (hand-written SQL)", t.ceiling)}`);
  console.log(`  ${line("Orama (in process)", t.orama)}`);
  const e = all(t.engine);
  const c = all(t.ceiling);
  console.log(`  engine / ceiling: p50 ${(pct(e, 50) / pct(c, 50)).toFixed(2)}x, p95 ${(pct(e, 95) / pct(c, 95)).toFixed(2)}x`);
  console.log("  by kind, p50 / p95 ms: engine | ceiling | Orama");
  KIND_NAMES.forEach((name, k) => {
    console.log(`    ${k} ${name}: ${p50p95(t.engine[k])} | ${p50p95(t.ceiling[k])} | ${p50p95(t.orama[k])}`);
  });
  console.log(`  Orama cannot express: ${ORAMA_GAPS.map((g, i) => `(${i + 1}) ${g}`).join("; ")}`);
}

/** Size of the search tables and their indexes per listing, and the cost of a listing update with its document. */
async function sizeAndWrites(db: Db, scope: SearchScope) {
  const [s] = rowsOf<{ bytes: string; n: string }>(
    await db.execute(sql`
    select (select sum(pg_total_relation_size(c.oid)) from pg_class c where c.relname in ('search_documents', 'search_texts')) as bytes,
           (select count(*) from search_documents) as n`),
  );
  console.log(
    `Search tables + indexes: ${(Number(s.bytes) / 1024 / 1024).toFixed(0)} MB for ${s.n} listings, ${(Number(s.bytes) / Number(s.n) / 1024).toFixed(2)} KB per listing`,
  );
  const ids = rowsOf<{ id: string }>(await db.execute(sql`select id from listings where tenant_id = ${scope.tenantId}::uuid order by id limit 60`)).map(
    (r) => r.id,
  );
  const times: number[] = [];
  for (const [i, id] of ids.entries()) {
    const t0 = performance.now();
    await inTransaction(db, async (tx) => {
      await tx.execute(sql`update listings set title = title || '', price = price + ${i % 2}, updated_at = now() where id = ${id}::uuid`);
      await reindexListings(tx, scope.tenantId, [id]);
    });
    if (i >= 10) times.push(performance.now() - t0);
  }
  const t = [...times].sort((a, b) => a - b);
  console.log(`Listing update with its search document (one transaction): p50 ${pct(t, 50).toFixed(1)} ms, p95 ${pct(t, 95).toFixed(1)} ms over ${t.length}`);
}

const loadavg = () => (os.loadavg() as number[]).map((x) => x.toFixed(2)).join(", ");

/** Per query kind, to see which one to tune (BENCH_BY_KIND=1). */
async function byKind(db: Db, scope: SearchScope) {
  const engine = engineFor(db);
  const mix = queryMix(Math.min(QUERIES, 400));
  for (let k = 0; k < 8; k++) {
    const times: number[] = [];
    const t = performance.now();
    for (const p of mix.filter((_, i) => i % 8 === k)) {
      const t0 = performance.now();
      await engine.search(scope, toSearchRequest(p, { maxPerPage: 250 }));
      times.push(performance.now() - t0);
    }
    report(`  kind ${k} (${JSON.stringify(mix[k]).slice(0, 90)})`, times, performance.now() - t);
  }
}

/** The REST endpoint's typed parameters for the same kinds of queries. */
function httpMix(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const h = HOODS[i % HOODS.length];
    const q = new URLSearchParams({ pageSize: "20" });
    switch (i % 6) {
      case 0:
        q.set("query", ["apartamento", "casa pinheiros", "cobertura", "varanda"][i % 4]);
        break;
      case 1:
        q.set("bedrooms", String(1 + (i % 4)));
        q.set("budget", String(600000 + (i % 10) * 150000));
        q.set("type", "sale");
        break;
      case 2:
        q.set("city", h[1]);
        q.set("hasPhotos", "true");
        q.set("minArea", "60");
        break;
      case 3:
        q.set("locations", h[0]);
        q.set("filter", "bedrooms:[2..4] && propertyType:!=studio");
        break;
      case 4:
        q.set("latitude", String(h[3]));
        q.set("longitude", String(h[4]));
        q.set("radiusKm", "2");
        break;
      case 5:
        q.set("propertyTypes", "apartment,penthouse");
        q.set("state", h[2]);
        q.set("page", String(1 + (i % 3)));
        break;
    }
    out.push(`/api/v1/real-estate/listings/search?${q}`);
  }
  return out;
}

async function httpRun(dbUrl: string | undefined, apiKey: string, cacheTtlMs: string) {
  if (!dbUrl) {
    console.log("HTTP: skipped (needs DATABASE_URL: the embedded database cannot be shared with a server process).");
    return;
  }
  const server = await startServer(HTTP_PORT, { DATABASE_URL: dbUrl, JOBS_RUNNER: "off", SEARCH_CACHE_TTL_MS: cacheTtlMs });
  try {
    const base = server.base;
    const urls = httpMix(HTTP_REQUESTS);
    const headers = { authorization: `Bearer ${apiKey}` };
    for (const u of urls.slice(0, 50)) await (await fetch(base + u, { headers })).text(); // warm-up
    // The first search starts loading the tenant's in-memory index in the background (~12 s for
    // 100,000 listings); measure the server as it runs once that is done.
    await new Promise((r) => setTimeout(r, Number(process.env.BENCH_HTTP_SETTLE_MS ?? 20_000)));
    // Node's http client on keep-alive sockets (http-load.ts): lighter than fetch, so on 2 cores
    // more of the CPU goes to the server being measured.
    const client = loadClient(10);
    const send = (i: number) => client.send(base + urls[Math.max(0, i)], { headers });
    // An untimed pass of the whole mix with the same 10 clients first: a fresh server's first
    // couple of thousand requests run partly unoptimized (V8's JIT), 20-30 % slower than a server
    // that has been up a while, which is what users meet.
    const warm = await client.hammer(urls.length, send, (s) => s === 200, 0);
    const r = await client.hammer(urls.length, send, (s) => s === 200, 0);
    console.log(
      `HTTP GET /api/v1/real-estate/listings/search (production build, 10 concurrent clients, SEARCH_CACHE_TTL_MS=${cacheTtlMs}, load ${loadavg()}): ${urls.length} requests after an untimed pass of as many (that pass: ${warm.rps.toFixed(0)} req/s), ${fmt(r)}`,
    );
    const failures = r.failures + warm.failures;
    if (failures) console.log(`  ${failures} requests did not answer 200`);
  } finally {
    await server.stop();
  }
}

async function freshKey(db: Db, tenantId: string): Promise<string> {
  const { issueApiKey } = await import("../../lib/auth/api-keys");
  const [owner] = rowsOf<{ id: string }>(await db.execute(sql`select id from members where tenant_id = ${tenantId} and role = 'owner' limit 1`));
  return (await issueApiKey(db, tenantId, owner.id, "bench", "broad")).key;
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  const dbUrl = await scratchDatabase();
  await runMigrations();
  const db = await getDb();
  const t0 = performance.now();
  const reuse = process.env.BENCH_REUSE ? rowsOf<{ id: string }>(await db.execute(sql`select id from tenants where slug = 'bench-main'`))[0] : undefined;
  const main = reuse ? { tenantId: reuse.id, apiKey: await freshKey(db, reuse.id) } : (await load(db)).main;
  if (!reuse) console.log(`Loaded and indexed in ${((performance.now() - t0) / 1000).toFixed(0)} s.`);
  const scope: SearchScope = { tenantId: main.tenantId, access: { kind: "all" }, networkIds: [] };
  console.log(`Load average before the run: ${loadavg()} (${os.cpus().length} cores)`);
  if (!process.env.BENCH_HTTP_ONLY) {
    await preloadMemory(db, main.tenantId);
    await engineRun(db, scope);
    if (process.env.BENCH_BY_KIND) await byKind(db, scope);
    await engineRun(db, scope, true);
    if (!process.env.BENCH_SKIP_SIDE) await sideBySide(db, dbUrl, scope);
    await sizeAndWrites(db, scope);
  }
  await closeDb();
  if (process.env.BENCH_ENGINE_ONLY) return;
  // Without the result cache (every query hits PostgreSQL), then with the default cache.
  await httpRun(dbUrl, main.apiKey, "0");
  await httpRun(dbUrl, main.apiKey, "600000");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
