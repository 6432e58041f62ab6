/**
 * Public sites benchmark: 100,000 listings in the site's tenant on PostgreSQL, then the production
 * build answering `resolve`, `property/{id}` and `POST search` (a mix of 200 site-style queries)
 * to 10 concurrent HTTP clients, each printed beside a bare Node `http` server that answers a fixed
 * JSON body on the same machine in the same run (the ceiling of any Node HTTP stack here).
 *
 *   npm run build && DATABASE_URL=postgres://... npm run bench:sites
 *   BENCH_LISTINGS=20000 ...                      # smaller run; BENCH_REUSE=1 keeps the loaded database
 */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Presets, SingleBar } from "cli-progress";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { closeDb, getDb, type Db } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { inTransaction } from "../../db/transaction";
import { authenticateApiKey } from "../../lib/auth/authenticate-key";
import { memberCtx } from "../../lib/context/verb-context";
import { reindexListings } from "../../lib/search/index-listings";
import { createSite } from "../../lib/sites/sites";
import { createTenant } from "../../lib/tenants/create-tenant";
import { HOODS, generateListingsSql } from "./search-data";

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CLIENTS = 10;
const PORT = Number(process.env.BENCH_PORT ?? 3211);
const DB_NAME = "crm_bench_sites";

async function scratchDatabase(): Promise<string> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("Set DATABASE_URL to a PostgreSQL server: the production server and this script share the database.");
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  if (!process.env.BENCH_REUSE) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${DB_NAME}`);
  }
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${DB_NAME}`;
  process.env.DATABASE_URL = u.toString();
  return u.toString();
}

async function load(db: Db): Promise<{ siteId: string }> {
  const t = await createTenant({ db }, { name: "Bench Sites", owner: { name: "O", email: "sites@bench.example.com" } });
  console.log(`Generating ${LISTINGS} listings...`);
  await db.execute(generateListingsSql(t.tenantId, t.owner.userId, LISTINGS));
  const ids = rowsOf<{ id: string }>(await db.execute(sql`select id from listings where tenant_id = ${t.tenantId}::uuid order by id`)).map((r) => r.id);
  const bar = new SingleBar({ format: "Indexing |{bar}| {value}/{total} documents | ETA {eta}s" }, Presets.shades_classic);
  bar.start(ids.length, 0);
  for (let i = 0; i < ids.length; i += 1000) {
    await inTransaction(db, (tx) => reindexListings(tx, t.tenantId, ids.slice(i, i + 1000)));
    bar.update(Math.min(i + 1000, ids.length));
  }
  bar.stop();
  await db.execute(sql`vacuum analyze`);
  const ctx = memberCtx(db, await authenticateApiKey(db, t.apiKey));
  const site = await createSite(ctx, { name: "Bench site", domain: "bench-sites.example.com", published: true });
  return { siteId: site.id };
}

/** 200 site-style searches: what a catalogue page sends (text, filters, facets, sort, paging). */
function searchMix(): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < 200; i++) {
    const h = HOODS[i % HOODS.length];
    switch (i % 5) {
      case 0: out.push({ q: ["apartamento", "casa", "cobertura", "varanda gourmet"][i % 4], query_by: "title,description", per_page: 12 }); break;
      case 1: out.push({ q: "*", filter_by: `location_city:=\`${h[1]}\` && bedrooms:>=${1 + (i % 3)}`, sort_by: "price:asc", per_page: 12 }); break;
      case 2: out.push({ q: "*", filter_by: `location_neighborhood:=\`${h[0]}\``, facet_by: "propertyType,bedrooms", per_page: 12 }); break;
      case 3: out.push({ q: "*", filter_by: `listingType:=sale && price:[300000..1500000]`, sort_by: "createdAt:desc", per_page: 24, page: 1 + (i % 4) }); break;
      case 4: out.push({ q: h[0], query_by: "title,location_neighborhood", filter_by: "hasPhotos:=true", per_page: 12 }); break;
    }
  }
  return out;
}

type Result = { rps: number; p50: number; p95: number; p99: number; failures: number };
type Answer = { status: number };

/**
 * The load generator: Node's http client on a keep-alive agent (one socket per client). Lighter
 * than fetch, so on this 2-core machine more of the CPU goes to the server being measured.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
function send(url: string, init: { method?: string; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", agent, headers: init.body ? { "content-type": "application/json" } : {} }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

async function hammer(n: number, request: (i: number) => Promise<Answer>): Promise<Result> {
  for (let i = 0; i < 30; i++) await request(i); // warm-up
  const times: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        const res = await request(i);
        if (res.status !== 200) failures++;
        times.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return { rps: n / seconds, p50: q(0.5), p95: q(0.95), p99: q(0.99), failures };
}

const fmt = (r: Result) => `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms${r.failures ? `, ${r.failures} not 200` : ""}`;

/** The ceiling: Node's own HTTP server answering a fixed JSON body, measured with the same clients. */
async function bareNode(): Promise<Result> {
  const body = JSON.stringify({ ok: true, items: Array.from({ length: 12 }, (_, i) => ({ id: i, title: "Apartamento" })) });
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
  await new Promise<void>((ok) => server.listen(0, ok));
  const base = `http://localhost:${(server.address() as AddressInfo).port}`;
  try {
    return await hammer(REQUESTS, () => send(`${base}/`));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  const dbUrl = await scratchDatabase();
  await runMigrations();
  const db = await getDb();
  const started = performance.now();
  const existing = process.env.BENCH_REUSE ? rowsOf<{ id: string }>(await db.execute(sql`select id from sites where domain = 'bench-sites.example.com'`))[0] : undefined;
  const { siteId } = existing ? { siteId: existing.id } : await load(db);
  if (!existing) console.log(`Loaded and indexed in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  const listingIds = rowsOf<{ id: string }>(
    await db.execute(sql`select l.id from listings l join sites s on s.tenant_id = l.tenant_id where s.id = ${siteId}::uuid and l.visibility = 'public' and l.stage = 'active' order by l.id limit 2000`),
  ).map((r) => r.id);
  await closeDb();

  const ceiling = await bareNode();
  console.log(`Bare Node http, fixed JSON (${CLIENTS} clients): ${fmt(ceiling)}`);

  const server = spawn("npx", ["next", "start", "-p", String(PORT)], {
    env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: "warn", JOBS_RUNNER: "off", NODE_ENV: "production", PUBLIC_RATE_LIMITS: "off" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  try {
    const base = `http://localhost:${PORT}`;
    for (let i = 0; i < 120; i++) {
      try {
        if ((await fetch(`${base}/api/health/ready`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    // A server that did not start (port taken, build missing) must not let another one be measured.
    if (server.exitCode !== null || !(await fetch(`${base}/api/health/ready`).then((r) => r.ok, () => false))) {
      throw new Error(`The server on port ${PORT} did not become ready: is the port free and the build current (npm run build)?`);
    }
    const mix = searchMix();
    const runs: [string, number, (i: number) => Promise<Answer>][] = [
      ["GET /api/sites/resolve?siteId=", 1000, () => send(`${base}/api/sites/resolve?siteId=${siteId}`)],
      ["GET /api/sites/{siteId}/property/{id}", 500, (i) => send(`${base}/api/sites/${siteId}/property/${listingIds[i % listingIds.length]}`)],
      [
        "POST /api/sites/{siteId}/search (200-query mix)",
        300,
        (i) => send(`${base}/api/sites/${siteId}/search`, { method: "POST", body: JSON.stringify(mix[i % mix.length]) }),
      ],
    ];
    for (const [name, target, request] of runs) {
      const r = await hammer(REQUESTS, request);
      console.log(`${name} (${CLIENTS} clients, target ≥ ${target} req/s): ${fmt(r)}; ${((r.rps / ceiling.rps) * 100).toFixed(0)} % of bare Node`);
    }
  } finally {
    process.kill(-server.pid!, "SIGTERM");
    await new Promise((r) => setTimeout(r, 1500));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
