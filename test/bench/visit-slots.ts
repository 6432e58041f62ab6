/**
 * Latency of a listing's free visit slots (GET /api/sites/{siteId}/listings/{id}/visit-slots, the
 * route handler in-process, rate limits off): a broker with weekday and Saturday ranges in 30-minute
 * slots, an exception, and BENCH_VISITS booked visits (default 150) over the next 14 days, plus the
 * tenant's visit queue of 5 members for a listing whose broker published nothing. Prints p50/p95/p99.
 *
 *   npm run bench:visit-slots                               # embedded PGlite in memory
 *   DATABASE_URL=postgres://... npm run bench:visit-slots   # PostgreSQL (scratch database crm_bench_visits)
 */
import os from "node:os";
import * as slotsRoute from "../../app/api/sites/[siteId]/listings/[listingId]/visit-slots/route";
import { closeDb, getDb } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { members } from "../../db/schema";
import { createTenant } from "../../lib/admin/create-tenant";
import type { MemberActor } from "../../lib/context/actor";
import { memberCtx } from "../../lib/context/verb-context";
import { createProperty } from "../../lib/listings/properties";
import { createSite } from "../../lib/sites/sites";
import { loadPublicSite } from "../../lib/sites/load-site";
import { putAvailability } from "../../lib/visits/availability";
import { bookVisit } from "../../lib/visits/book-visit";
import { listingVisitSlots } from "../../lib/visits/visit-slots";
import { scratchDatabase } from "./http-load";

const VISITS = Number(process.env.BENCH_VISITS ?? 150);
const RUNS = Number(process.env.BENCH_RUNS ?? 500);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  process.env.PUBLIC_RATE_LIMITS = "off";
  let engine = "PGlite (in memory)";
  if (process.env.DATABASE_URL) {
    await scratchDatabase("crm_bench_visits", false);
    engine = "PostgreSQL";
  } else process.env.PGLITE_DIR = "memory://";
  await runMigrations();
  const db = await getDb();
  const t = await createTenant({ db }, { name: "Bench Visits", owner: { name: "Broker", email: "owner@visits-bench.example.com" } });
  const actor: MemberActor = {
    kind: "member",
    tenantId: t.tenantId,
    userId: t.owner.userId,
    role: "owner",
    scope: "broad",
    keyId: t.owner.userId,
    access: "broad",
  };
  const ctx = memberCtx(db, actor);
  const weekly = [1, 2, 3, 4, 5].flatMap((weekday) => [
    { weekday, start: "08:00", end: "12:00" },
    { weekday, start: "13:00", end: "19:00" },
  ]);
  weekly.push({ weekday: 6, start: "09:00", end: "13:00" });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await putAvailability(ctx, {
    memberId: t.owner.userId,
    body: { timezone: "America/Sao_Paulo", weekly, exceptions: [{ date: tomorrow, start: "10:00", end: "16:00" }], slotMinutes: 30 },
  });
  const property = (title: string) => ({
    property: { title, type: "apartment", bedrooms: 2, totalArea: "70" },
    location: { neighborhood: "Pinheiros", city: "São Paulo", state: "SP" },
    listings: [{ title, type: "sale", price: "800000", stage: "active", visibility: "public" }],
  });
  const own = await createProperty(ctx, property("Apartamento do corretor"));
  const site = await createSite(ctx, { name: "Bench", domain: "visits-bench.localhost", published: true });
  const siteRow = await loadPublicSite(db, site.id);
  const listingId = own.listings[0].id;

  // Book visits across the two weeks.
  const open = await listingVisitSlots(db, siteRow, listingId, { days: 14 });
  const step = Math.max(1, Math.floor(open.slots.length / VISITS));
  let booked = 0;
  for (let i = 0; i < open.slots.length && booked < VISITS; i += step) {
    await bookVisit(db, siteRow, listingId, {
      start: open.slots[i].start,
      contact: { name: `Visitante ${i}`, phone: `+55119${String(70000000 + i)}` },
      consent: true,
    });
    booked++;
  }

  // A listing whose broker published nothing: the queue of 5 members shows it.
  const [creator] = await db
    .insert(members)
    .values({ tenantId: t.tenantId, name: "Sem agenda", email: "noagenda@visits-bench.example.com", role: "broker" })
    .returning();
  const queueListing = await createProperty(
    memberCtx(db, { ...actor, userId: creator.id, role: "broker", access: "restricted" }),
    property("Apartamento da fila"),
  );
  for (let i = 0; i < 4; i++) {
    const [m] = await db
      .insert(members)
      .values({ tenantId: t.tenantId, name: `Fila ${i}`, email: `q${i}@visits-bench.example.com`, role: "broker" })
      .returning();
    await putAvailability(ctx, { memberId: m.id, body: { timezone: "America/Sao_Paulo", weekly, exceptions: [], slotMinutes: 60 } });
  }

  const time = async (label: string, id: string) => {
    const url = `http://bench.localhost/api/sites/${site.id}/listings/${id}/visit-slots`;
    let count = 0;
    for (let i = 0; i < 20; i++) await slotsRoute.GET(new Request(url), { params: Promise.resolve({ siteId: site.id, listingId: id }) });
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await slotsRoute.GET(new Request(url), { params: Promise.resolve({ siteId: site.id, listingId: id }) });
      const body = (await res.json()) as { slots: unknown[] };
      ms.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`visit-slots answered ${res.status}`);
      count = body.slots.length;
    }
    console.log(
      `${label}: ${count} free slots; p50 ${pct(ms, 50).toFixed(2)} ms, p95 ${pct(ms, 95).toFixed(2)} ms, p99 ${pct(ms, 99).toFixed(2)} ms (${RUNS} requests)`,
    );
  };
  console.log(
    `Visit slots on ${engine}; ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; ${booked} visits booked`,
  );
  await time("broker's slots (14 days, 30 min)", listingId);
  await time("visit queue (4 members, 14 days, 60 min)", queueListing.listings[0].id);
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
