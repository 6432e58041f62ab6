import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "../../../db/client";
import { inTransaction } from "../../../db/transaction";
import { rowsOf } from "../../../db/rows";
import type { SearchEngine, SearchResult, SearchScope } from "../../../lib/search/engine";
import { reindexListings } from "../../../lib/search/index-listings";
import { MemorySearchEngine } from "../../../lib/search/memory/memory-engine";
import { numericText, shortestFloat32 } from "../../../lib/search/memory/facets";
import { parseTsvector } from "../../../lib/search/memory/text-index";
import { pruneSearchRemovals } from "../../../lib/search/prune-removals";
import { applyChanges, RemovalsPruned } from "../../../lib/search/memory/load";
import { parseTsquery, textMatches } from "../../../lib/search/memory/text-match";
import { toSearchRequest, type RawSearchParams } from "../../../lib/search/params";
import { PostgresSearchEngine } from "../../../lib/search/postgres/postgres-engine";
import { loadTenant } from "../../../lib/tenants/load-tenant";
import { generateListingsSql, HOODS } from "../../bench/search-data";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";

/**
 * The in-memory engine must answer exactly what PostgreSQL answers: the same matches, order,
 * totals and facets, for every scope (a broker's restricted view, a public site hiding private
 * prices), and stay current with every commit.
 */
let db: Db;
let t: TestTenant;
let other: TestTenant;
let broker: { userId: string };
let activeStage: string;
const pg = new PostgresSearchEngine(getDb);
/** A fallback that fails: a query the memory engine claims must never reach PostgreSQL. */
const failing: SearchEngine = {
  name: "postgres",
  search: async () => {
    throw new Error("fell back to PostgreSQL");
  },
};
let mem: MemorySearchEngine;

const N = 400;

async function reindexAll(tenantId: string) {
  const ids = rowsOf<{ id: string }>(await db.execute(sql`select id from listings where tenant_id = ${tenantId}::uuid`)).map((r) => r.id);
  await inTransaction(db, (tx) => reindexListings(tx, tenantId, ids));
}

beforeAll(async () => {
  db = await getDb();
  t = await makeTenant();
  other = await makeTenant();
  broker = await makeMember(t, "broker", "restricted");
  activeStage = (await loadTenant(db, t.tenantId)).settings.listingWorkflow.activeStageId;
  await db.execute(generateListingsSql(t.tenantId, t.ownerId, N));
  await db.execute(generateListingsSql(other.tenantId, other.ownerId, 50));
  // Variety the generator lacks: private prices, missing prices and places, other stages, a broker's own listings.
  await db.execute(sql`update listings set price_visibility = 'private' where tenant_id = ${t.tenantId}::uuid and listing_code ~ '^BN[0-9]*7-'`);
  await db.execute(sql`update listings set price = null where tenant_id = ${t.tenantId}::uuid and listing_code ~ '^BN[0-9]*3-'`);
  await db.execute(sql`update listings set stage = 'draft' where tenant_id = ${t.tenantId}::uuid and listing_code ~ '^BN[0-9]*9-'`);
  await db.execute(sql`update properties set latitude = null, longitude = null where tenant_id = ${t.tenantId}::uuid and bedrooms = 5 and suites = 1`);
  await db.execute(sql`update properties set assigned_to_id = ${broker.userId}::uuid where tenant_id = ${t.tenantId}::uuid and bathrooms = 2`);
  await reindexAll(t.tenantId);
  await reindexAll(other.tenantId);
  mem = new MemorySearchEngine(failing, getDb, { minDocs: 0, maxDocs: 1_000_000 });
  await mem.preload(t.tenantId);
}, 120_000);

const [hood, city, state, lat, lng] = HOODS[0];
const QUERIES: RawSearchParams[] = [
  { q: "*", per_page: 30 },
  { q: "*", per_page: 30, page: 4 },
  { q: "*", filter_by: "bedrooms:>=3 && price:<1500000 && listingType:=sale", per_page: 25 },
  { q: "*", filter_by: `location_city:=\`${city}\` && hasPhotos:true && totalArea:[50..200]`, sort_by: "price:asc", per_page: 40 },
  { q: "*", filter_by: `location_neighborhood:=[\`${hood}\`, Moema] && bedrooms:[2..4] && propertyType:!=studio`, per_page: 50 },
  { q: "*", filter_by: `location:(${lat}, ${lng}, 3 km)`, sort_by: `location(${lat}, ${lng}):asc`, per_page: 30 },
  { q: "*", filter_by: `location_state:=${state}`, facet_by: "location_city,bedrooms,propertyType,price,suites,hasPhotos", per_page: 10 },
  { q: "*", facet_by: "propertyFeatures,location_neighborhood,listingType,parkingSpots", max_facet_values: 50, per_page: 5 },
  { q: "*", filter_by: "price:!=[250000..900000] || bedrooms:1", sort_by: "price:desc,bedrooms:asc", per_page: 60 },
  { q: "*", filter_by: "price:[!=1500, >2000000]", per_page: 20 },
  { q: "*", filter_by: "location_city:sao && location_neighborhood:!vila", facet_by: "location_neighborhood", per_page: 20 },
  { q: "*", filter_by: "location_neighborhood:vila ma*", per_page: 20 },
  { q: "*", filter_by: "location_city:=rio de*", per_page: 20 },
  { q: "*", filter_by: "propertyFeatures:=[Varanda, Piscina privativa] || propertyFeatures:churras*", per_page: 20 },
  { q: "*", filter_by: "propertyFeatures:!varanda && hasPhotos:!=true", sort_by: "totalArea:desc", per_page: 20 },
  { q: "*", filter_by: "bedrooms:=[1,5] && totalArea:>100.5 && condoFee:<=2000", sort_by: "createdAt:asc", per_page: 20 },
  { q: "*", filter_by: "visibility:=private || priceVisibility:=private", facet_by: "visibility,stage,status", per_page: 20 },
  { q: "*", filter_by: "publishedAt:>0 && createdAt:>0", sort_by: "publishedAt:desc", per_page: 20, page: 2 },
  { q: "*", filter_by: "id:!=*", per_page: 10 },
  { q: "*", filter_by: "bedrooms:>10", facet_by: "location_city,bedrooms", per_page: 10 },
  { q: "*", per_page: 0, facet_by: "bedrooms" },
  { q: "*", sort_by: "bedrooms:desc,price:asc", per_page: 250, page: 2 },
  // Past the insertion buffer (one sort of all matches), and past the end.
  { q: "*", sort_by: "totalArea:asc", per_page: 100, page: 3 },
  { q: "*", filter_by: "bedrooms:>=2", per_page: 100, page: 20 },
  // Text: matched and ranked on the vectors in memory (a conjunction, the last word a prefix).
  { q: "apartamento", query_by: "title,description,location_neighborhood", per_page: 20 },
  { q: "casa pinheiros", query_by: "title,description,location_neighborhood", per_page: 30 },
  { q: "apart", query_by: "title", per_page: 50, page: 2 },
  { q: "varanda gourmet", query_by: "title,location_neighborhood,location_city", filter_by: "bedrooms:>=2", facet_by: "location_neighborhood", per_page: 20 },
  { q: "sao paulo", query_by: "location_city,location_neighborhood", sort_by: "price:asc,_text_match:desc", per_page: 40 },
  { q: "quartos", query_by: "title,description,listingCode,location_city,propertyType", per_page: 250 },
  { q: "imovel escolas comercio", query_by: "description", sort_by: "_text_match:asc", per_page: 100, page: 2 },
  { q: "p", query_by: "title,description", per_page: 30 },
  { q: "vila vila", query_by: "title,location_neighborhood", filter_by: "price:>500000", facet_by: "bedrooms,propertyType", per_page: 20 },
];

/** What must agree: matches, totals, order, distances, facets (stats to float precision). */
function comparable(r: SearchResult) {
  return {
    found: r.found,
    out_of: r.out_of,
    ids: r.hits.map((h) => h.document.id),
    distances: r.hits.map((h) => h.geo_distance_meters?.location ?? null),
    prices: r.hits.map((h) => h.document.price ?? null),
    textMatch: r.hits.map((h) => h.text_match ?? null),
    facets: r.facet_counts.map((f) => ({ field: f.field_name, counts: f.counts, total_values: f.stats.total_values })),
  };
}

function expectSameStats(a: SearchResult, b: SearchResult, label: string) {
  a.facet_counts.forEach((f, i) => {
    const s = b.facet_counts[i].stats;
    for (const k of ["min", "max", "sum", "avg"] as const) {
      if (f.stats[k] === undefined) expect(s[k], `${label} ${f.field_name}.${k}`).toBeUndefined();
      else
        expect(Math.abs(s[k]! - f.stats[k]!), `${label} ${f.field_name}.${k}: ${s[k]} vs ${f.stats[k]}`).toBeLessThanOrEqual(
          1e-6 * Math.max(1, Math.abs(f.stats[k]!)),
        );
    }
  });
}

describe("the in-memory search engine", () => {
  const scopes = (): [string, SearchScope][] => [
    ["the whole tenant", { tenantId: t.tenantId, access: { kind: "all" }, networkIds: [] }],
    ["a broker's restricted view", { tenantId: t.tenantId, access: { kind: "restricted", userId: broker.userId }, networkIds: [] }],
    ["a public site (private prices hidden)", { tenantId: t.tenantId, access: { kind: "all" }, networkIds: [], publicOnly: { activeStage } }],
  ];

  it("answers every query of the mix exactly as PostgreSQL does, in every scope", async () => {
    let compared = 0;
    for (const [name, scope] of scopes()) {
      for (const p of QUERIES) {
        const req = toSearchRequest(p, { maxPerPage: 250 });
        const [a, b] = [await pg.search(scope, req), await mem.search(scope, req)];
        const label = `${name}: ${JSON.stringify(p)}`;
        expect(comparable(b), label).toEqual(comparable(a));
        expectSameStats(a, b, label);
        compared++;
      }
    }
    expect(compared).toBe(QUERIES.length * 3);
    // The mix is not vacuous: it finds things, and facets count them.
    const all = await mem.search(scopes()[0][1], toSearchRequest({ q: "*" }, { maxPerPage: 250 }));
    expect(all.found).toBe(N);
    const site = await mem.search(scopes()[2][1], toSearchRequest({ q: "*", filter_by: "price:>0", per_page: 250 }, { maxPerPage: 250 }));
    expect(site.found).toBeGreaterThan(0);
    expect(site.hits.every((h) => h.document.priceVisibility === "public")).toBe(true);
  });

  it("sees every commit: a changed price, a new listing, a deleted one", async () => {
    const scope: SearchScope = { tenantId: t.tenantId, access: { kind: "all" }, networkIds: [] };
    const req = toSearchRequest({ q: "*", filter_by: "price:=123456789", per_page: 5 }, { maxPerPage: 250 });
    expect((await mem.search(scope, req)).found).toBe(0);
    const [target] = rowsOf<{ id: string }>(
      await db.execute(sql`select id from listings where tenant_id = ${t.tenantId}::uuid and price > 0 order by id limit 1`),
    );
    await inTransaction(db, async (tx) => {
      await tx.execute(sql`update listings set price = 123456789 where id = ${target.id}::uuid`);
      await reindexListings(tx, t.tenantId, [target.id]);
    });
    const changed = await mem.search(scope, req);
    expect(changed.hits.map((h) => h.document.id)).toEqual([target.id]);
    // A value on a column filtered through per-value bitsets moves with the document: it leaves
    // its old value's set and joins the new one's.
    const byType = ["sale", "rental"].map((v) =>
      toSearchRequest({ q: "*", filter_by: `listingType:=${v} && stage:!=nowhere`, per_page: 250 }, { maxPerPage: 250 }),
    );
    const before = await Promise.all(byType.map((r) => mem.search(scope, r)));
    await inTransaction(db, async (tx) => {
      await tx.execute(
        sql`update listings set type = case when type = 'rental' then 'sale'::listing_type else 'rental'::listing_type end where id = ${target.id}::uuid`,
      );
      await reindexListings(tx, t.tenantId, [target.id]);
    });
    for (const [i, r] of byType.entries()) {
      const after = await mem.search(scope, r);
      expect(Math.abs(after.found - before[i].found)).toBe(1);
      expect(comparable(after).ids).toEqual(comparable(await pg.search(scope, r)).ids);
    }

    for (let i = 0; i < 3; i++) {
      const res = await call(propertiesRoute.POST, "POST", "/x", {
        key: t.key,
        body: {
          property: { type: "house", bedrooms: 3 },
          location: { city, neighborhood: hood, state },
          listings: [{ title: `Casa nova ${i}`, type: "sale", price: "700000", stage: "active" }],
        },
      });
      expect(res.status).toBe(201);
    }
    const everything = toSearchRequest({ q: "*", per_page: 0 }, { maxPerPage: 250 });
    expect((await mem.search(scope, everything)).found).toBe(N + 3);

    // A listing deleted outright: its document goes by cascade, and the trigger's tombstone drops it from memory.
    await db.execute(sql`delete from listings where id = ${target.id}::uuid`);
    expect((await mem.search(scope, req)).found).toBe(0);
    expect((await mem.search(scope, everything)).found).toBe(N + 2);
    expect(comparable(await mem.search(scope, everything))).toEqual(comparable(await pg.search(scope, everything)));
    // Their words too: the vectors written with the documents are in memory by the next search.
    const novas = toSearchRequest({ q: "casa nova", query_by: "title", per_page: 10 }, { maxPerPage: 250 });
    expect((await mem.search(scope, novas)).found).toBe(3);
    expect(comparable(await mem.search(scope, novas))).toEqual(comparable(await pg.search(scope, novas)));
  });

  it("never shows another tenant's listings, and leaves text and networks to PostgreSQL", async () => {
    const mine: SearchScope = { tenantId: t.tenantId, access: { kind: "all" }, networkIds: [] };
    const theirs = await mem.preload(other.tenantId);
    expect(theirs.count).toBe(50);
    const r = await mem.search(
      { tenantId: other.tenantId, access: { kind: "all" }, networkIds: [] },
      toSearchRequest({ q: "*", per_page: 250 }, { maxPerPage: 250 }),
    );
    expect(r.found).toBe(50);
    const own = new Set(rowsOf<{ id: string }>(await db.execute(sql`select id from listings where tenant_id = ${other.tenantId}::uuid`)).map((x) => x.id));
    expect(r.hits.every((h) => own.has(h.document.id as string))).toBe(true);
    // Text that is not a plain conjunction, or finds nothing (the typo retry), is PostgreSQL's.
    for (const q of ["apartamento -casa", '"vila madalena"', "apartamentx", "o a de"]) {
      await expect(mem.search(mine, toSearchRequest({ q, query_by: "title" }, { maxPerPage: 250 })), q).rejects.toThrow("fell back to PostgreSQL");
    }
    expect((await mem.search(mine, toSearchRequest({ q: "apartamento", query_by: "title" }, { maxPerPage: 250 }))).found).toBeGreaterThan(0);
    await expect(mem.search({ ...mine, networkIds: [other.tenantId] }, toSearchRequest({ q: "*" }, { maxPerPage: 250 }))).rejects.toThrow("fell back");
    const polygon = `location:(${lat - 0.05}, ${lng - 0.05}, ${lat - 0.05}, ${lng + 0.05}, ${lat + 0.05}, ${lng + 0.05})`;
    await expect(mem.search(mine, toSearchRequest({ q: "*", filter_by: polygon }, { maxPerPage: 250 }))).rejects.toThrow("fell back");
    await expect(mem.search(mine, toSearchRequest({ q: "*", sort_by: "location_city:asc" }, { maxPerPage: 250 }))).rejects.toThrow("fell back");
  });

  it("leaves a tenant below the size threshold on PostgreSQL", async () => {
    const calls: string[] = [];
    const counting: SearchEngine = {
      name: "postgres",
      search: async (s, r) => {
        calls.push(s.tenantId);
        return pg.search(s, r);
      },
    };
    const engine = new MemorySearchEngine(counting, getDb, { minDocs: 1_000, maxDocs: 1_000_000 });
    const scope: SearchScope = { tenantId: other.tenantId, access: { kind: "all" }, networkIds: [] };
    for (let i = 0; i < 3; i++) {
      expect((await engine.search(scope, toSearchRequest({ q: "*" }, { maxPerPage: 250 }))).found).toBe(50);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(calls).toHaveLength(3);
  });
});

describe("pruning old removal tombstones", () => {
  it("prunes tombstones older than a day, and an index that never applied them loads again", async () => {
    const small = await makeTenant();
    await db.execute(generateListingsSql(small.tenantId, small.ownerId, 20));
    await reindexAll(small.tenantId);
    const calls: string[] = [];
    const counting: SearchEngine = {
      name: "postgres",
      search: async (s, r) => {
        calls.push(s.tenantId);
        return pg.search(s, r);
      },
    };
    const engine = new MemorySearchEngine(counting, getDb, { minDocs: 0, maxDocs: 1_000_000 });
    const stale = await engine.preload(small.tenantId);
    const staleVersion = stale.version;
    const scope: SearchScope = { tenantId: small.tenantId, access: { kind: "all" }, networkIds: [] };
    const everything = toSearchRequest({ q: "*", per_page: 250 }, { maxPerPage: 250 });
    expect((await engine.search(scope, everything)).found).toBe(20);

    // A listing goes while this process is not searching; its tombstone is two days old when pruned.
    const [gone] = rowsOf<{ id: string }>(await db.execute(sql`select id from listings where tenant_id = ${small.tenantId}::uuid order by id limit 1`));
    await db.execute(sql`delete from listings where id = ${gone.id}::uuid`);
    await db.execute(sql`update search_removals set removed_at = now() - interval '2 days' where tenant_id = ${small.tenantId}::uuid`);
    // Another tenant's fresh tombstone stays.
    await db.execute(sql`insert into search_removals (tenant_id, listing_id, search_version) values (${other.tenantId}::uuid, gen_random_uuid(), 1)`);
    expect(await pruneSearchRemovals(db)).toBeGreaterThanOrEqual(1);
    const left = rowsOf<{ tenant_id: string }>(
      await db.execute(sql`select tenant_id from search_removals where tenant_id in (${small.tenantId}::uuid, ${other.tenantId}::uuid)`),
    );
    expect(left.map((r) => r.tenant_id)).toEqual([other.tenantId]);
    const [tenant] = rowsOf<{ v: string; p: string }>(
      await db.execute(sql`select search_version as v, search_removals_pruned as p from tenants where id = ${small.tenantId}::uuid`),
    );
    expect(Number(tenant.p)).toBe(Number(tenant.v));
    // A refresh that reads after the prune (the prune landing between its two reads) refuses to go on.
    await expect(applyChanges(db, stale, Number(tenant.v))).rejects.toBeInstanceOf(RemovalsPruned);
    expect(stale.version).toBe(staleVersion);

    // The index cannot learn of that removal: PostgreSQL answers while it loads again, then memory does.
    const r = await engine.search(scope, everything);
    expect(r.found).toBe(19);
    expect(r.hits.some((h) => h.document.id === gone.id)).toBe(false);
    expect(calls).toHaveLength(1);
    let fromMemory = false;
    for (let i = 0; i < 100 && !fromMemory; i++) {
      await new Promise((ok) => setTimeout(ok, 20));
      const before = calls.length;
      expect((await engine.search(scope, everything)).found).toBe(19);
      fromMemory = calls.length === before;
    }
    expect(fromMemory).toBe(true);
  });
});

describe("text ranked in memory as ts_rank_cd ranks it", () => {
  it("gives every matching document PostgreSQL's rank, to the last bit of the real", async () => {
    const ix = await mem.preload(t.tenantId);
    const queries = [
      "apartamento:*",
      "vila & madalena:*",
      "quartos:A & apartamento:*AB",
      "vila:C & vila:*B",
      "otima & proximo & parque:*",
      "rua:B & sao:*BC",
      "imovel & comercio:*C",
      "casa:ABC & quartos & varanda:*",
      "escolas & imovel & localizacao & vila:*",
      // Short prefixes: many lexemes each (looked up by id rather than searched one by one).
      "b:*",
      "c:*",
      "vila & b:*B",
    ];
    let ranked = 0;
    for (const input of queries) {
      const rows = rowsOf<{ q: string; id: string; r: number }>(
        await db.execute(sql`select to_tsquery('pt_unaccent', ${input})::text as q, t.listing_id as id, ts_rank_cd(t.tsv, to_tsquery('pt_unaccent', ${input})) as r
        from search_texts t where t.tenant_id = ${t.tenantId}::uuid and t.tsv @@ to_tsquery('pt_unaccent', ${input})`),
      );
      expect(rows.length, input).toBeGreaterThan(0);
      const ops = parseTsquery(rows[0].q)!;
      expect(ops, rows[0].q).not.toBeNull();
      const m = textMatches(ix.text, ix.everySlot(ix.size), ix.size, ops);
      expect(m.matches.length, input).toBe(rows.length);
      for (const row of rows) {
        const slot = ix.slotOf.get(row.id)!;
        expect(shortestFloat32(m.rank[slot]), `${input} ${row.id}`).toBe(Number(row.r));
        ranked++;
      }
    }
    // Not a vacuous run: thousands of documents ranked, and `b:*` took the many-lexemes path.
    expect(ranked).toBeGreaterThan(1000);
    expect(ix.text.withPrefix("b").length).toBeGreaterThan(16);
  });

  it("reads a tsvector's text form, quotes, escapes and weights included", () => {
    expect(parseTsvector("'apart':1A,35 'it''s':2B 'a\\\\b':3C 'bare'")).toEqual([
      ["apart", [1 | (3 << 14), 35]],
      ["it's", [2 | (2 << 14)]],
      ["a\\b", [3 | (1 << 14)]],
      ["bare", []],
    ]);
    expect(parseTsquery("'apart':*ABC & 'moem':C")).toEqual([
      { lexeme: "apart", prefix: true, weights: 0b1110 },
      { lexeme: "moem", prefix: false, weights: 0b0010 },
    ]);
    expect(parseTsquery("'apart' & !'cas'")).toBeNull();
    expect(parseTsquery("'vil' <-> 'madalen'")).toBeNull();
    expect(parseTsquery("")).toBeNull();
  });
});

describe("facet values written as PostgreSQL writes a real", () => {
  it("matches trim_scale(x::real::numeric)::text, ties rounded to even", async () => {
    const values = [0, 1.1, 2.5, 49.99, 350000, 1234565, 1234575, 123456.5, 999999.5, 4250000, 0.000123, -17.25, 1e9 + 7];
    const rows = rowsOf<{ t: string }>(
      await db.execute(sql`select trim_scale(v::real::numeric)::text as t
      from unnest(string_to_array(${values.join(",")}, ',')::float8[]) with ordinality as u(v, i) order by i`),
    );
    expect(values.map((v) => numericText(Math.fround(v)))).toEqual(rows.map((r) => r.t));
  });
});
