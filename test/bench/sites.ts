/**
 * Public sites benchmark: 100,000 listings in the site's tenant on PostgreSQL, then the production
 * build answering `resolve`, `property/{id}` and `POST search` (a mix of 200 site-style queries)
 * to 10 concurrent HTTP clients, each printed beside a bare Node `http` server that answers a fixed
 * JSON body on the same machine in the same run (the ceiling of any Node HTTP stack here).
 *
 *   npm run build && DATABASE_URL=postgres://... npm run bench:sites
 *   BENCH_LISTINGS=20000 ...                      # smaller run; BENCH_REUSE=1 keeps the loaded database
 */
import { Presets, SingleBar } from "cli-progress";
import { sql } from "drizzle-orm";
import { closeDb, getDb, type Db } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { inTransaction } from "../../db/transaction";
import { authenticateApiKey } from "../../lib/auth/authenticate-key";
import { memberCtx } from "../../lib/context/verb-context";
import { reindexListings } from "../../lib/search/index-listings";
import { createSite } from "../../lib/sites/sites";
import { createTenant } from "../../lib/tenants/create-tenant";
import { bareNode, fmt, loadClient, scratchDatabase, startServer, type Answer } from "./http-load";
import { HOODS, generateListingsSql } from "./search-data";

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CLIENTS = 10;
const PORT = Number(process.env.BENCH_PORT ?? 3211);
const DB_NAME = "crm_bench_sites";


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

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  const dbUrl = await scratchDatabase(DB_NAME, Boolean(process.env.BENCH_REUSE));
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
    for (const [name, target, request] of runs) {
      const r = await hammer(REQUESTS, request);
      console.log(`${name} (${CLIENTS} clients, target ≥ ${target} req/s): ${fmt(r)}; ${((r.rps / ceiling.rps) * 100).toFixed(0)} % of bare Node`);
    }
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
