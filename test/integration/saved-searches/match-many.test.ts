/**
 * One listing change against hundreds of saved searches: every search the full filters admit gets
 * its hit, the others none, and a later price fall makes all of them due again, in one pass of the
 * matcher (the hits are written set-based, one statement per change).
 */
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import { getDb } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { savedSearchCursors, savedSearchHits, savedSearches } from "../../../db/schema";
import type { SavedFilters } from "../../../lib/saved-searches/filters";
import { matchSavedSearches, matchTenantBatch } from "../../../lib/saved-searches/match";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { savedSearchRow } from "../../helpers/saved-searches";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let t: TestTenant;
let other: TestTenant;
const MATCHING = 250;
const NOT_MATCHING = 50;

beforeAll(async () => {
  t = await makeTenant("Imobiliária Muitas Buscas");
  other = await makeTenant("Imobiliária Outra");
  const db = await getDb();
  for (const tenant of [t, other]) {
    const site = await makeSite(tenant);
    // Matching searches ask for 2+ bedrooms; the others for 4+ (the listing has 3): the same type, city and price, told apart by bedrooms.
    const rows = Array.from({ length: tenant === t ? MATCHING + NOT_MATCHING : 20 }, (_, i) => {
      const filters: SavedFilters = { type: "sale", city: "Sao Paulo", bedrooms: i < MATCHING ? 2 : 4, maxPrice: 900000 };
      return savedSearchRow(tenant, site, filters, { email: `buscador-${i}@cliente.test` });
    });
    await db.insert(savedSearches).values(rows);
    await db
      .insert(savedSearchCursors)
      .values({ tenantId: tenant.tenantId, lastSeq: sql`(select coalesce(max(seq), 0) from events where tenant_id = ${tenant.tenantId}::uuid)` })
      .onConflictDoNothing();
  }
});

async function listing(price: string, tenant = t) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: tenant.key,
    body: {
      property: { type: "apartment", bedrooms: 3, totalArea: "80" },
      location: { city: "São Paulo", neighborhood: "Pinheiros", state: "SP" },
      listings: [{ title: "Apartamento em Pinheiros", type: "sale", price, stage: "active" }],
    },
  });
  expect(res.status).toBe(201);
  return res.body.listings[0] as { id: string };
}
const patch = (id: string, body: Record<string, unknown>) =>
  call(listingRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id }, body }).then((r) => expect(r.status).toBe(200));

async function hitsOf(listingId: string) {
  const res = await (await getDb()).execute(sql`
    select h.reason, h.price::text as price, h.sent_at, s.filters->>'bedrooms' as bedrooms, h.tenant_id::text as tenant
    from saved_search_hits h join saved_searches s on s.id = h.saved_search_id where h.listing_id = ${listingId}::uuid`);
  return rowsOf<{ reason: string; price: string; sent_at: Date | null; bedrooms: string; tenant: string }>(res);
}

async function timedMatch() {
  const db = await getDb();
  const started = performance.now();
  let passes = 0;
  while (await matchSavedSearches(db)) passes++;
  return { ms: Math.round(performance.now() - started), passes };
}

describe("matching one listing against many saved searches", () => {
  it("records a hit for every search the full filters admit, in this tenant only; a price fall makes them all due again", async () => {
    const hit = await listing("850000");
    const first = await timedMatch();
    console.info(`saved-search matching: 1 listing x ${MATCHING + NOT_MATCHING} candidate searches in ${first.ms} ms`);
    let hits = await hitsOf(hit.id);
    expect(hits).toHaveLength(MATCHING);
    expect(new Set(hits.map((h) => h.bedrooms))).toEqual(new Set(["2"]));
    expect(new Set(hits.map((h) => `${h.reason} ${h.price} ${h.tenant}`))).toEqual(new Set([`new 850000.00 ${t.tenantId}`]));

    // As if every alert went out; an edit that does not lower the price makes nothing due.
    const db = await getDb();
    await db.update(savedSearchHits).set({ sentAt: new Date() }).where(eq(savedSearchHits.listingId, hit.id));
    await patch(hit.id, { title: "Apartamento reformado em Pinheiros" });
    await timedMatch();
    expect((await hitsOf(hit.id)).filter((h) => h.sent_at === null)).toHaveLength(0);

    // The price falls: every hit is due again at the new price, as a price drop.
    await patch(hit.id, { price: "800000" });
    await timedMatch();
    hits = await hitsOf(hit.id);
    expect(hits).toHaveLength(MATCHING);
    expect(new Set(hits.map((h) => `${h.reason} ${h.price} ${h.sent_at}`))).toEqual(new Set(["price_drop 800000.00 null"]));

    // A rise is no news, and leaves the recorded (lower) price alone.
    await db.update(savedSearchHits).set({ sentAt: new Date() }).where(eq(savedSearchHits.listingId, hit.id));
    await patch(hit.id, { price: "820000" });
    await timedMatch();
    hits = await hitsOf(hit.id);
    expect(hits.filter((h) => h.sent_at === null)).toHaveLength(0);
    expect(new Set(hits.map((h) => h.price))).toEqual(new Set(["800000.00"]));
  });

  it("checks what the index cannot (area, words) in code: only the searches whose area and words the listing meets get a hit", async () => {
    const db = await getDb();
    const site = await makeSite(t);
    const extra: Record<string, SavedFilters> = {
      tooSmall: { type: "sale", city: "Sao Paulo", minArea: 100 },
      smallEnough: { type: "sale", city: "Sao Paulo", maxArea: 90 },
      otherWords: { type: "sale", city: "Sao Paulo", q: "piscina" },
      itsWords: { type: "sale", city: "Sao Paulo", q: "pinheiros apartamento" },
    };
    const rows = await db
      .insert(savedSearches)
      .values(Object.entries(extra).map(([name, filters]) => savedSearchRow(t, site, filters, { email: `${name}@cliente.test` })))
      .returning({ id: savedSearches.id, email: savedSearches.email });
    const hit = await listing("860000");
    await timedMatch();
    const got = rowsOf<{ saved_search_id: string }>(
      await db.execute(sql`select saved_search_id from saved_search_hits where listing_id = ${hit.id}::uuid`),
    ).map((r) => r.saved_search_id);
    const named = (email: string) => rows.find((r) => r.email === email)!.id;
    expect(got).toContain(named("smallEnough@cliente.test"));
    expect(got).toContain(named("itsWords@cliente.test"));
    expect(got).not.toContain(named("tooSmall@cliente.test"));
    expect(got).not.toContain(named("otherWords@cliente.test"));
    expect(got).toHaveLength(MATCHING + 2);
    // The next test counts the first searches' hits only.
    await db.delete(savedSearches).where(
      inArray(
        savedSearches.id,
        rows.map((r) => r.id),
      ),
    );
  });

  it("reads the outbox in batches: the cursor moves past each batch in commit order, and every listing of them gets its hits", async () => {
    const db = await getDb();
    const cursor = async () =>
      (await db.select({ lastSeq: savedSearchCursors.lastSeq }).from(savedSearchCursors).where(eq(savedSearchCursors.tenantId, t.tenantId)))[0].lastSeq;
    const from = Number(await cursor());
    const [one, two] = [await listing("730000"), await listing("740000")];
    const seqs = rowsOf<{ seq: string }>(
      await db.execute(sql`select seq::text as seq from events where tenant_id = ${t.tenantId}::uuid and seq > ${from} order by events.seq`),
    ).map((r) => Number(r.seq));
    expect(seqs.length).toBeGreaterThanOrEqual(2);
    // One event a batch: the cursor stops on each event in turn, then nothing is left to read.
    for (const seq of seqs) {
      expect(await matchTenantBatch(db, t.tenantId, 1)).toMatchObject({ read: 1 });
      expect(Number(await cursor())).toBe(seq);
    }
    expect(await matchTenantBatch(db, t.tenantId, 1)).toEqual({ read: 0, due: 0 });
    expect(Number(await cursor())).toBe(seqs.at(-1));
    expect(await hitsOf(one.id)).toHaveLength(MATCHING);
    expect(await hitsOf(two.id)).toHaveLength(MATCHING);
  });

  it("takes a listing's hits with it when the listing is deleted, a search's with the search, and a tenant's with the tenant", async () => {
    const db = await getDb();
    const count = async (where: ReturnType<typeof sql>) =>
      rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from saved_search_hits where ${where}`))[0].n;
    const [gone, kept, others] = [await listing("700000"), await listing("710000"), await listing("720000", other)];
    await timedMatch();
    expect(await count(sql`listing_id = ${others.id}::uuid`)).toBe(20);
    expect(await count(sql`listing_id = ${gone.id}::uuid`)).toBe(MATCHING);
    expect(await count(sql`listing_id = ${kept.id}::uuid`)).toBe(MATCHING);

    const del = await call(listingRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: gone.id } });
    expect(del.status).toBe(200);
    expect(await count(sql`listing_id = ${gone.id}::uuid`)).toBe(0);
    expect(await count(sql`listing_id = ${kept.id}::uuid`)).toBe(MATCHING);

    // One search deleted: its hits only.
    const [one] = rowsOf<{ saved_search_id: string }>(
      await db.execute(sql`select saved_search_id from saved_search_hits where listing_id = ${kept.id}::uuid limit 1`),
    );
    await db.delete(savedSearches).where(eq(savedSearches.id, one.saved_search_id));
    expect(await count(sql`saved_search_id = ${one.saved_search_id}::uuid`)).toBe(0);
    expect(await count(sql`listing_id = ${kept.id}::uuid`)).toBe(MATCHING - 1);

    // The whole tenant: every hit of it goes through the cascade to its searches and listings; the other tenant's stay.
    await db.execute(sql`delete from tenants where id = ${t.tenantId}::uuid`);
    expect(await count(sql`tenant_id = ${t.tenantId}::uuid`)).toBe(0);
    expect(await count(sql`tenant_id = ${other.tenantId}::uuid`)).toBe(20);
  });
});
