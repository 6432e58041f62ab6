/**
 * Public sites benchmark: 100,000 listings in the site's tenant on PostgreSQL, then the production
 * build answering `resolve`, `property/{id}` and `POST search` (a mix of 200 site-style queries)
 * to 10 concurrent HTTP clients, each printed beside a bare Node `http` server that answers a fixed
 * JSON body on the same machine in the same run (the ceiling of any Node HTTP stack here).
 *
 *   npm run build && DATABASE_URL=postgres://... npm run bench:sites
 *   BENCH_LISTINGS=20000 ...                      # smaller run; BENCH_REUSE=1 keeps the loaded database
 *   WEB_CONCURRENCY=1 ...                         # one web process instead of one per core
 */
import { sql } from "drizzle-orm";
import { closeDb } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { bareNode, fmt, loadClient, startServer, type Answer } from "./http-load";
import { HOODS } from "./search-data";
import { prepareSiteBench } from "./site-data";

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CLIENTS = 10;
const PORT = Number(process.env.BENCH_PORT ?? 3211);
const DB_NAME = "crm_bench_sites";

/** 200 site-style searches: what a catalogue page sends (text, filters, facets, sort, paging). */
function searchMix(): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < 200; i++) {
    const h = HOODS[i % HOODS.length];
    switch (i % 5) {
      case 0:
        out.push({ q: ["apartamento", "casa", "cobertura", "varanda gourmet"][i % 4], query_by: "title,description", per_page: 12 });
        break;
      case 1:
        out.push({ q: "*", filter_by: `location_city:=\`${h[1]}\` && bedrooms:>=${1 + (i % 3)}`, sort_by: "price:asc", per_page: 12 });
        break;
      case 2:
        out.push({ q: "*", filter_by: `location_neighborhood:=\`${h[0]}\``, facet_by: "propertyType,bedrooms", per_page: 12 });
        break;
      case 3:
        out.push({ q: "*", filter_by: `listingType:=sale && price:[300000..1500000]`, sort_by: "createdAt:desc", per_page: 24, page: 1 + (i % 4) });
        break;
      case 4:
        out.push({ q: h[0], query_by: "title,location_neighborhood", filter_by: "hasPhotos:=true", per_page: 12 });
        break;
    }
  }
  return out;
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  const site = { tenant: "Bench Sites", email: "sites@bench.example.com", site: "Bench site", domain: "bench-sites.example.com", listings: LISTINGS };
  const { dbUrl, db, siteId } = await prepareSiteBench(DB_NAME, site, Boolean(process.env.BENCH_REUSE));
  const listingIds = rowsOf<{ id: string }>(
    await db.execute(
      sql`select l.id from listings l join sites s on s.tenant_id = l.tenant_id where s.id = ${siteId}::uuid and l.visibility = 'public' and l.stage = 'active' order by l.id limit 2000`,
    ),
  ).map((r) => r.id);
  await closeDb();

  const ceiling = await bareNode(REQUESTS, CLIENTS);
  console.log(`Bare Node http, fixed JSON (${CLIENTS} clients): ${fmt(ceiling)}`);
  const { send, hammer } = loadClient(CLIENTS);
  const server = await startServer(PORT, { DATABASE_URL: dbUrl, JOBS_RUNNER: "off" });
  try {
    const base = server.base;
    const mix = searchMix();
    const runs: [string, number, (i: number) => Promise<Answer>][] = [
      ["GET /api/sites/resolve?siteId=", 1000, () => send(`${base}/api/sites/resolve?siteId=${siteId}`)],
      ["GET /api/sites/{siteId}/property/{id}", 500, (i) => send(`${base}/api/sites/${siteId}/property/${listingIds[Math.abs(i) % listingIds.length]}`)],
      [
        "POST /api/sites/{siteId}/search (200-query mix)",
        300,
        (i) => send(`${base}/api/sites/${siteId}/search`, { method: "POST", body: JSON.stringify(mix[Math.abs(i) % mix.length]) }),
      ],
    ];
    // Each run is timed after an untimed pass of as many requests, as the other HTTP benchmarks:
    // a fresh server's first thousands of requests run partly unoptimized (V8's JIT), and the first
    // search of a large tenant starts loading its in-memory index in the background (~8 s).
    for (const [name, target, request] of runs) {
      const warm = await hammer(REQUESTS, request);
      if (name.startsWith("POST")) await new Promise((r) => setTimeout(r, Number(process.env.BENCH_SETTLE_MS ?? 15_000)));
      const r = await hammer(REQUESTS, request);
      console.log(
        `${name} (${CLIENTS} clients, target ≥ ${target} req/s; untimed pass first: ${warm.rps.toFixed(0)} req/s): ${fmt(r)}; ${((r.rps / ceiling.rps) * 100).toFixed(0)} % of bare Node`,
      );
    }
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
