/**
 * The map endpoint (`GET /api/sites/{siteId}/map`, issue 36) on PostgreSQL with 100,000 listings in
 * the tenant (the site-page bench's database, `crm_bench_render_sites`): the verb the route runs
 * (`siteMap`: the site's catalogue, filters, grid clustering in SQL, pins) timed one request at a
 * time, per viewport: a whole city at zoom 11 (the case), the same with filters, a
 * neighbourhood at zoom 15, and the whole country at zoom 4.
 *
 *   DATABASE_URL=postgres://... npm run bench:map
 *   BENCH_REUSE=1 ...              # keep the loaded database (as bench:site-pages leaves it)
 *
 * Target: p95 ≤ 60 ms with the whole city in view.
 */
import { closeDb } from "../../db/client";
import { loadPublicSite } from "../../lib/sites/load-site";
import { siteMap } from "../../lib/sites/site-map";
import { percentiles } from "./http-load";
import { prepareSiteBench } from "./site-data";

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);

const VIEWS: { name: string; bbox: string; zoom: number; filter_by?: string }[] = [
  { name: "São Paulo, whole city (zoom 11)", bbox: "-46.83,-23.75,-46.36,-23.40", zoom: 11 },
  { name: "São Paulo, whole city, 2+ bedrooms under R$ 1.5 M", bbox: "-46.83,-23.75,-46.36,-23.40", zoom: 11, filter_by: "bedrooms:>=2 && price:<1500000" },
  { name: "Pinheiros, zoomed in (zoom 15)", bbox: "-46.700,-23.575,-46.680,-23.558", zoom: 15 },
  { name: "Brazil (zoom 4)", bbox: "-74,-34,-34,6", zoom: 4 },
];

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  const o = { tenant: "Bench Render", email: "render@bench.example.com", site: "Bench render", domain: "bench-render.localhost", listings: LISTINGS };
  const { db, siteId } = await prepareSiteBench("crm_bench_render_sites", o, Boolean(process.env.BENCH_REUSE));
  const site = await loadPublicSite(db, siteId);
  console.log(`Map endpoint's verb on PostgreSQL, ${LISTINGS.toLocaleString("en")} listings, ${RUNS} requests per view, one at a time:`);
  for (const v of VIEWS) {
    const input = { bbox: v.bbox, zoom: String(v.zoom), filter_by: v.filter_by };
    const first = await siteMap(db, site, input);
    for (let i = 0; i < 10; i++) await siteMap(db, site, input);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await siteMap(db, site, input);
      times.push(performance.now() - t0);
    }
    const p = percentiles(times);
    console.log(
      `  ${v.name}: ${first.total.toLocaleString("en")} listings in view, ${first.clusters.length} clusters, ${first.pins.length} pins; ` +
        `p50 ${p.p50.toFixed(1)} ms, p95 ${p.p95.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms`,
    );
  }
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
