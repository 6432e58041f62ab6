/**
 * Rendered site pages (issue #15) on PostgreSQL with 100,000 listings: the production build
 * answering listing pages and catalogue pages by host name (`Host: bench-render.localhost`) to 10
 * concurrent HTTP clients, beside a bare Node `http` server (the ceiling of any Node HTTP stack on
 * this machine in the same run).
 *
 *   npm run build && DATABASE_URL=postgres://... npm run bench:site-pages
 *   BENCH_LISTINGS=20000 ...        # smaller run; BENCH_REUSE=1 keeps the loaded database,
 *                                   # BENCH_LOAD_ONLY=1 loads without measuring
 *   BENCH_NODES=2 ...               # through `npm run cluster:local`'s layout instead of one
 *                                   # `npm start`: nginx round-robin to two nodes (one web process
 *                                   # each) on PgBouncer in transaction mode (issue 38)
 *
 * Targets: listing page ≥ 150 pages/s with p50 ≤ 30 ms; catalogue page ≥ 100 pages/s (rendered);
 * from the page cache (PAGE_CACHE, on in production; issue 38): listing page ≥ 1,000 pages/s,
 * catalogue ≥ 600 pages/s. PAGE_CACHE=off measures renders only.
 */
import { sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { slugify } from "../../lib/sites/locations";
import { bareNode, fmt, loadClient, paced, percentiles, startServer } from "./http-load";
import { HOODS } from "./search-data";
import { prepareSiteBench } from "./site-data";
import { startCluster } from "../../scripts/cluster-local/start";

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CLIENTS = 10;
const PORT = Number(process.env.BENCH_PORT ?? 3211);
const DB_NAME = "crm_bench_render_sites";
const HOST = "bench-render.localhost";
const NODES = Number(process.env.BENCH_NODES ?? 1);

/**
 * What the bench talks to: one `npm start` (its web processes sharing the port), or with
 * BENCH_NODES ≥ 2 the several-node layout: nginx round-robin → nodes → PgBouncer → PostgreSQL.
 */
async function startTarget(dbUrl: string): Promise<{ base: string; stop: () => Promise<void> }> {
  if (NODES < 2) return startServer(PORT, { DATABASE_URL: dbUrl, JOBS_RUNNER: "off" });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cluster-"));
  const nodePorts = Array.from({ length: NODES }, (_, i) => PORT + 1 + i);
  const cluster = await startCluster({
    databaseUrl: dbUrl,
    port: PORT,
    nodePorts,
    poolerPort: PORT + 100,
    dataDir,
    // As the one-node run: no jobs, no public rate limits (10 clients share one address).
    nodeEnv: { LOG_LEVEL: "warn", JOBS_RUNNER: "off", PUBLIC_RATE_LIMITS: "off" },
  });
  console.log(`Server: ${NODES} nodes (${nodePorts.join(", ")}, one web process each) behind nginx :${PORT}, on PgBouncer :${PORT + 100}`);
  return {
    base: `http://localhost:${PORT}`,
    stop: async () => {
      await cluster.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** 10 keep-alive clients sending `Host: bench-render.localhost`, counting 200s. */
function hostClient(base: string) {
  const { send, hammer } = loadClient(CLIENTS);
  const headers = { host: `${HOST}:${new URL(base).port}` };
  const get = (path: string) => send(`${base}${path}`, { headers });
  // loadClient warms up with indexes -1, -2, ...: they ask for path(n), path(n + 1), ... as before.
  return { get, hammer: (n: number, path: (i: number) => string) => hammer(n, (i) => get(path(i < 0 ? n - 1 - i : i))) };
}

/** What visitors ask the catalogue: plain pages, business and type filters, price ranges, cities, sorts, pages. */
function catalogueMix(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 200; i++) {
    const h = HOODS[i % HOODS.length];
    switch (i % 6) {
      case 0:
        out.push(`/imoveis${i % 12 ? `?page=${1 + (i % 5)}` : ""}`);
        break;
      case 1:
        out.push(`/imoveis?type=sale&propertyType=apartment&bedrooms=${1 + (i % 3)}`);
        break;
      case 2:
        out.push(`/imoveis?type=rental&maxPrice=${3000 + (i % 5) * 1000}`);
        break;
      case 3:
        out.push(`/imoveis?city=${encodeURIComponent(h[1])}&sort=price_asc`);
        break;
      case 4:
        out.push(`/imoveis?minPrice=300000&maxPrice=1500000&minArea=60&page=${1 + (i % 3)}`);
        break;
      case 5:
        out.push(`/imoveis?q=${encodeURIComponent(["apartamento", "casa", "varanda"][i % 3])}`);
        break;
    }
  }
  return out;
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  const site = { tenant: "Bench Render", email: "render@bench.example.com", site: "Bench render", domain: HOST, listings: LISTINGS };
  const { dbUrl, db } = await prepareSiteBench(DB_NAME, site, Boolean(process.env.BENCH_REUSE));
  // Listing pages at their canonical address (code + slug of the title), as search engines and links reach them.
  const paths = rowsOf<{ code: string; title: string }>(
    await db.execute(sql`select l.listing_code as code, l.title from listings l join sites s on s.tenant_id = l.tenant_id
      where s.domain = ${HOST} and l.visibility = 'public' and l.stage = 'active' order by l.id limit ${3 * REQUESTS + 300}`),
  ).map((r) => `/imovel/${encodeURIComponent(r.code)}/${slugify(r.title).slice(0, 80).replace(/-+$/, "")}`);
  await closeDb();
  if (paths.length < 2) throw new Error(`The bench site has ${paths.length} active public listings: it needs at least 2 (BENCH_LISTINGS).`);
  if (process.env.BENCH_LOAD_ONLY) return console.log("Loaded (BENCH_LOAD_ONLY): run again with BENCH_REUSE=1 to measure.");

  const ceiling = await bareNode(REQUESTS, CLIENTS);
  console.log(`Bare Node http, fixed JSON (${CLIENTS} clients): ${fmt(ceiling)}`);
  const server = await startTarget(dbUrl);
  try {
    const c = hostClient(server.base);
    const { status } = await c.get(paths[0]);
    if (status !== 200) throw new Error(`GET ${paths[0]} answered ${status}: is the build current?`);
    const mix = catalogueMix();
    // Each run is timed after an untimed pass of as many requests (a fresh server's first few
    // thousand run partly unoptimized by V8's JIT); the listing pages of the timed pass are other
    // listings than the untimed pass's, each asked once, so no cache of a page's data helps.
    const half = Math.min(REQUESTS, Math.floor(paths.length / 3));
    const runs: [string, string, (i: number) => string, (i: number) => string][] = [
      ["listing page /imovel/{code}/{slug}", "≥ 150 pages/s, p50 ≤ 30 ms", (i) => paths[half + (i % half)], (i) => paths[i % half]],
      ["catalogue /imoveis (200-URL filter mix, search result cache on)", "≥ 100 pages/s", (i) => mix[i % mix.length], (i) => mix[i % mix.length]],
    ];
    for (const [name, target, path, warmPath] of runs) {
      const warm = await c.hammer(REQUESTS, warmPath);
      const r = await c.hammer(REQUESTS, path);
      console.log(
        `${name} (${CLIENTS} clients, target ${target}; untimed pass first: ${warm.rps.toFixed(0)} pages/s): ${fmt(r)}; ${((r.rps / ceiling.rps) * 100).toFixed(0)} % of bare Node`,
      );
    }
    // The page cache (issue 38; PAGE_CACHE, on in production): pages asked again, as visitors and
    // crawlers do. The listing run above asks each listing once, so it measured renders; this one
    // asks 1,000 listing pages (the untimed pass's first thousand, asked again) and the catalogue
    // mix (asked twice above), so every process has them and they are answered from its cache.
    const cachedRuns: [string, string, (i: number) => string][] = [
      ["listing page from the page cache (1,000 listings asked again)", "≥ 1,000 pages/s", (i) => paths[i % Math.min(1000, half)]],
      ["catalogue from the page cache (the 200-URL mix again)", "≥ 600 pages/s", (i) => mix[i % mix.length]],
    ];
    for (const [name, target, path] of cachedRuns) {
      // An untimed pass first, six requests a page: each web process (and each node) keeps its own
      // pages, and a keep-alive connection stays with one process, so a page must be asked several
      // times to reach every one.
      await c.hammer(6000, path);
      const r = await c.hammer(REQUESTS * 2, path);
      console.log(`${name} (${CLIENTS} clients, target ${target}): ${fmt(r)}; ${((r.rps / ceiling.rps) * 100).toFixed(0)} % of bare Node`);
    }
    // Latency of a listing page: one at a time, and when the site serves 150 a second (open loop
    // from the same 10 clients, latency counted from each request's due time). Listings not asked before.
    const fresh = paths.slice(2 * half);
    const single = await (async () => {
      const times: number[] = [];
      for (let i = 0; i < 300; i++) {
        const t0 = performance.now();
        await c.get(fresh[i % fresh.length]);
        times.push(performance.now() - t0);
      }
      return percentiles(times);
    })();
    console.log(
      `listing page one at a time (300 pages): p50 ${single.p50.toFixed(1)} ms, p95 ${single.p95.toFixed(1)} ms, p99 ${single.p99.toFixed(1)} ms (target p50 ≤ 30 ms)`,
    );
    const steady = await paced((i) => c.get(fresh[(300 + i) % fresh.length]), REQUESTS, 150, CLIENTS);
    console.log(
      `listing page at a steady 150 pages/s (${CLIENTS} clients, open loop): sent at ${steady.rps.toFixed(0)}/s, p50 ${steady.p50.toFixed(1)} ms, p95 ${steady.p95.toFixed(1)} ms, p99 ${steady.p99.toFixed(1)} ms${steady.failures ? `, ${steady.failures} not 200` : ""}`,
    );
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
