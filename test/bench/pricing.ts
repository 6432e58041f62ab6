/**
 * Accuracy and latency of the pricing tool's estimate (POST /api/sites/share/{token}/price-estimate).
 *
 * Leave-one-out: each listing is valued from the others (its own row excluded from the comparables)
 * and compared with its price, (1) over the demo agency and (2) over a generated tenant of 20,000
 * sale listings whose prices follow a known model (neighbourhood price per m², type, size,
 * parking, a spatial gradient) times log-normal noise of σ = 10%. Prints the median absolute
 * percentage error (against the listed price, and on the generated set also against the
 * noise-free model value), the share of listed prices inside the range, the confidence levels,
 * and the latency of token check + valuation (p50/p95/p99).
 *
 *   DATABASE_URL=postgres://... npm run bench:pricing       # PostgreSQL (scratch database crm_bench_pricing)
 *   npm run bench:pricing                                   # embedded PGlite in memory
 *   BENCH_PRICING_LISTINGS=20000 BENCH_PRICING_SAMPLE=2000   # the defaults
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { closeDb, getDb, type Db } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { rowsOf } from "../../db/rows";
import { listings, properties, shareLinks } from "../../db/schema";
import { loadDemoData } from "../../db/seed/demo";
import { CITIES } from "../../db/seed/places";
import { createRng, type Rng } from "../../db/seed/random";
import { inTransaction } from "../../db/transaction";
import { reindexListings } from "../../lib/search/index-listings";
import { cityCode } from "../../lib/share/pricing-cities";
import { pricingVisitor } from "../../lib/share/share-visitor";
import { valueProperty, type PriceEstimate } from "../../lib/share/price-estimate";
import { newCoordinateSeed, newShareToken } from "../../lib/share/secrets";
import { createTenant } from "../../lib/admin/create-tenant";
import { scratchDatabase } from "./http-load";

const LISTINGS = Number(process.env.BENCH_PRICING_LISTINGS ?? 20_000);
const SAMPLE = Number(process.env.BENCH_PRICING_SAMPLE ?? 2_000);
/** The generated noise: log-normal, σ = 10% of the price. */
const NOISE = 0.1;

/** A scratch PostgreSQL database crm_bench_pricing with DATABASE_URL, else PGlite in memory; answers which. */
async function benchDatabase(): Promise<string> {
  if (!process.env.DATABASE_URL) {
    process.env.PGLITE_DIR = "memory://";
    return "PGlite (in memory)";
  }
  await scratchDatabase("crm_bench_pricing", false);
  return "PostgreSQL";
}

const gauss = (rng: Rng) => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

type Subject = {
  listingId: string;
  price: number;
  model?: number;
  city: string;
  state: string | null;
  neighborhood: string;
  propertyType: string;
  bedrooms: number | null;
  bathrooms: number | null;
  parkingSpaces: number | null;
  totalArea: number;
};

const TYPES = [
  ["apartment", 55, 1, 75],
  ["studio", 10, 1.15, 35],
  ["penthouse", 5, 1.15, 220],
  ["house", 22, 0.85, 200],
  ["condo_house", 8, 0.95, 320],
] as const;

/** The generated tenant: properties and listings written in chunks, then indexed like any listing. */
async function generate(db: Db, tenantId: string, ownerId: string): Promise<Map<string, number>> {
  const rng = createRng(20_261_124);
  const model = new Map<string, number>();
  for (let done = 0; done < LISTINGS; done += 1000) {
    const rows: {
      i: number;
      city: (typeof CITIES)[number];
      nb: (typeof CITIES)[number]["neighborhoods"][number];
      type: string;
      area: number;
      bedrooms: number;
      parking: number;
      lat: number;
      lng: number;
      value: number;
      price: number;
    }[] = [];
    for (let i = done; i < Math.min(LISTINGS, done + 1000); i++) {
      const city = rng.weighted(CITIES.map((c) => [c, c.weight] as const));
      const nb = rng.pick(city.neighborhoods);
      const [type, , factor, typical] = rng.weighted(TYPES.map((t) => [t, t[1]] as const));
      const area = Math.round(typical * Math.exp(0.3 * gauss(rng)));
      const bedrooms = type === "studio" ? 1 : Math.max(1, Math.min(5, Math.round(area / 35)));
      const parking = type === "studio" ? rng.int(0, 1) : rng.int(1, 3);
      // About 650 m around the neighbourhood's centre; prices rise 4% per km to the east.
      const dLat = 0.006 * gauss(rng);
      const dLng = 0.006 * gauss(rng);
      const eastKm = dLng * 111.32 * Math.cos((nb.lat * Math.PI) / 180);
      const value = nb.pricePerSqm * factor * (area / 80) ** -0.1 * (1 + 0.03 * parking) * Math.exp(0.04 * eastKm) * area;
      const price = Math.round((value * Math.exp(NOISE * gauss(rng))) / 1000) * 1000;
      rows.push({ i, city, nb, type, area, bedrooms, parking, lat: nb.lat + dLat, lng: nb.lng + dLng, value, price });
    }
    await inTransaction(db, async (tx) => {
      const props = await tx
        .insert(properties)
        .values(
          rows.map((r) => ({
            tenantId,
            type: r.type,
            bedrooms: r.bedrooms,
            bathrooms: Math.max(1, r.bedrooms - 1),
            parkingSpaces: r.parking,
            totalArea: r.area.toFixed(2),
            neighborhood: r.nb.name,
            city: r.city.city,
            state: r.city.state,
            latitude: r.lat,
            longitude: r.lng,
            createdById: ownerId,
          })),
        )
        .returning({ id: properties.id });
      const ls = await tx
        .insert(listings)
        .values(
          rows.map((r, k) => ({
            tenantId,
            propertyId: props[k].id,
            title: `Imóvel ${r.i}`,
            type: "sale" as const,
            price: r.price.toFixed(2),
            stage: "active",
            status: "available",
            listingCode: `GEN${r.i}`,
            createdById: ownerId,
            publishedAt: new Date(),
          })),
        )
        .returning({ id: listings.id });
      ls.forEach((l, k) => {
        model.set(l.id, rows[k].value);
      });
      await reindexListings(
        tx,
        tenantId,
        ls.map((l) => l.id),
      );
    });
    process.stdout.write(`\r  generated ${Math.min(LISTINGS, done + 1000)}/${LISTINGS}`);
  }
  process.stdout.write("\n");
  return model;
}

/** The listings a valuation may use as comparables, with their profile, as the estimate reads them. */
async function subjects(db: Db, tenantId: string): Promise<Subject[]> {
  return rowsOf<any>(
    await db.execute(sql`
      select d.listing_id, d.price, d.location_city as city, d.location_state as state, d.location_neighborhood as neighborhood,
             d.property_type, d.bedrooms, d.bathrooms, d.parking_spots, d.total_area
      from search_documents d
      where d.tenant_id = ${tenantId}::uuid and d.listing_type = 'sale' and d.price > 0 and d.total_area > 0 and d.visibility = 'public'
        and d.price_visibility = 'public' and d.on_air and not coalesce(d.is_primary_market, false) and d.location_neighborhood is not null
      order by d.listing_id`),
  ).map((r) => ({
    listingId: r.listing_id,
    price: Number(r.price),
    city: r.city,
    state: r.state,
    neighborhood: r.neighborhood,
    propertyType: r.property_type,
    bedrooms: r.bedrooms,
    bathrooms: r.bathrooms,
    parkingSpaces: r.parking_spots,
    totalArea: Number(r.total_area),
  }));
}

async function pricingToken(db: Db, tenantId: string): Promise<string> {
  const token = newShareToken();
  await db.insert(shareLinks).values({ tenantId, token, entityType: "pricing_tool", entityId: tenantId, coordinateSeed: newCoordinateSeed() });
  return token;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const median = (v: number[]) =>
  pct(
    [...v].sort((a, b) => a - b),
    50,
  );
const share = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)}%`;

async function leaveOneOut(db: Db, label: string, token: string, all: Subject[], sample: number) {
  // A fixed, spread sample (every k-th listing), so every run values the same listings.
  const step = Math.max(1, Math.floor(all.length / sample));
  const picked = all.filter((_, i) => i % step === 0).slice(0, sample);
  for (const s of picked.slice(0, 20)) await run(s); // warm-up (plans, caches), not counted
  const errors: number[] = [];
  const modelErrors: number[] = [];
  const times: number[] = [];
  let inside = 0;
  let modelInside = 0;
  let none = 0;
  const levels: Record<string, number> = { high: 0, medium: 0, low: 0 };
  async function run(s: Subject): Promise<PriceEstimate> {
    const { tenant } = (await pricingVisitor(db, token)).actor;
    return valueProperty(db, tenant, {
      city: cityCode(s.city, s.state),
      neighborhood: s.neighborhood,
      propertyType: s.propertyType,
      bedrooms: s.bedrooms,
      bathrooms: s.bathrooms,
      parkingSpaces: s.parkingSpaces,
      totalArea: s.totalArea,
      excludeListingId: s.listingId,
    });
  }
  for (const s of picked) {
    const t0 = performance.now();
    const e = await run(s);
    times.push(performance.now() - t0);
    if (!e.estimate) {
      none++;
      continue;
    }
    levels[e.confidence.level]++;
    errors.push(Math.abs(e.estimate.value - s.price) / s.price);
    if (e.estimate.low <= s.price && s.price <= e.estimate.high) inside++;
    if (s.model) {
      modelErrors.push(Math.abs(e.estimate.value - s.model) / s.model);
      if (e.estimate.low <= s.model && s.model <= e.estimate.high) modelInside++;
    }
  }
  const t = [...times].sort((a, b) => a - b);
  const valued = errors.length;
  console.log(`\n${label}: ${picked.length} listings valued leave-one-out (of ${all.length}); ${none} without an estimate (fewer than 3 comparables)`);
  console.log(
    `  median absolute error vs listed price: ${(100 * median(errors)).toFixed(1)}%${modelErrors.length ? ` (${(median(errors) / NOISE).toFixed(2)}× the ${100 * NOISE}% noise); vs noise-free model value: ${(100 * median(modelErrors)).toFixed(1)}%` : ""}`,
  );
  console.log(`  listed price inside the range: ${share(inside, valued)}${modelErrors.length ? `; model value inside: ${share(modelInside, valued)}` : ""}`);
  console.log(`  confidence: high ${share(levels.high, valued)}, medium ${share(levels.medium, valued)}, low ${share(levels.low, valued)}`);
  console.log(`  latency (token check + valuation): p50 ${pct(t, 50).toFixed(1)} ms, p95 ${pct(t, 95).toFixed(1)} ms, p99 ${pct(t, 99).toFixed(1)} ms`);
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  // The demo loader writes its credentials file: keep it out of this checkout's data folder.
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "crm-bench-pricing-"));
  const engine = await benchDatabase();
  await runMigrations();
  const db = await getDb();
  console.log(
    `Pricing benchmark on ${engine}; ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} at start`,
  );

  console.log("Loading the demo agency...");
  const demo = await loadDemoData(db);
  await leaveOneOut(db, "Demo agency", await pricingToken(db, demo.tenantId), await subjects(db, demo.tenantId), 10_000);

  console.log(`\nGenerating ${LISTINGS} sale listings with a known price model and ${100 * NOISE}% log-normal noise...`);
  const gen = await createTenant({ db }, { name: "Bench Pricing", owner: { name: "O", email: "owner@pricing-bench.example.com" } });
  const model = await generate(db, gen.tenantId, gen.owner.userId);
  if (process.env.DATABASE_URL) await db.execute(sql`vacuum analyze`);
  const all = (await subjects(db, gen.tenantId)).map((s) => ({ ...s, model: model.get(s.listingId) }));
  await leaveOneOut(db, "Generated set", await pricingToken(db, gen.tenantId), all, SAMPLE);
  console.log(
    `\nLoad average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
