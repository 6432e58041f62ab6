import { beforeAll, describe, expect, it } from "vitest";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import * as searchRoute from "../../../app/api/v1/real-estate/listings/search/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as joinRoute from "../../../app/api/v1/settings/networks/join/route";
import * as shareRoute from "../../../app/api/v1/settings/networks/[id]/listings/route";
import * as networksRoute from "../../../app/api/v1/settings/networks/route";
import { getDb } from "../../../db/client";
import type { SearchScope } from "../../../lib/search/engine";
import { toSearchRequest, type RawSearchParams } from "../../../lib/search/params";
import { PostgresSearchEngine } from "../../../lib/search/postgres/postgres-engine";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
let scope: SearchScope;
const engine = new PostgresSearchEngine(getDb);
const run = (p: RawSearchParams, s: SearchScope = scope) => engine.search(s, toSearchRequest(p, { maxPerPage: 250 }));

async function home(title: string, city: string, hood: string, price: string, bedrooms: number, features: string[], lat: number, lng: number, key = t.key) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key,
    body: {
      property: { type: "apartment", bedrooms, features },
      location: { city, neighborhood: hood, state: "SP", latitude: lat, longitude: lng },
      listings: [
        { title, description: `Imóvel em ${hood}, ${city}. Excelente localização perto de parques e comércio.`, type: "sale", price, stage: "active" },
      ],
    },
  });
  expect(res.status).toBe(201);
  return res.body.listings[0].id as string;
}

beforeAll(async () => {
  t = await makeTenant();
  scope = { tenantId: t.tenantId, access: { kind: "all" }, networkIds: [] };
  await home("Apartamento claro em Pinheiros", "São Paulo", "Pinheiros", "900000", 2, ["balcony", "barbecue"], -23.5665, -46.6915);
  await home("Apartamento amplo em Pinheiros", "São Paulo", "Pinheiros", "1500000", 3, ["balcony"], -23.567, -46.69);
  await home("Cobertura em Moema", "São Paulo", "Moema", "3000000", 4, ["private_pool", "balcony"], -23.6009, -46.6658);
  await home("Casa em Campinas", "Campinas", "Cambuí", "1200000", 3, [], -22.8923, -47.0557);
});

describe("the PostgreSQL engine (Typesense-shaped results)", () => {
  it("answers the Typesense result shape", async () => {
    const r = await run({ q: "*", per_page: 2 });
    expect(r).toMatchObject({ found: 4, out_of: 4, page: 1, search_cutoff: false, facet_counts: [] });
    expect(r.hits).toHaveLength(2);
    expect(r.request_params).toMatchObject({ collection_name: "listings", per_page: 2, q: "*" });
    expect(r.search_time_ms).toBeGreaterThanOrEqual(0);
    expect(r.hits[0].highlights).toEqual([]);
    expect(r.hits[0]).not.toHaveProperty("text_match");
  });

  it("counts facets over all matches, strings and arrays, with numeric stats", async () => {
    const r = await run({ q: "*", facet_by: "location_city,features,bedrooms,price", per_page: 1 });
    const city = r.facet_counts.find((f) => f.field_name === "location_city")!;
    expect(city.counts[0]).toEqual({ count: 3, highlighted: "São Paulo", value: "São Paulo" });
    expect(city.stats.total_values).toBe(2);
    const features = r.facet_counts.find((f) => f.field_name === "features")!;
    expect(features.counts[0]).toMatchObject({ count: 3, value: "Varanda" });
    const bedrooms = r.facet_counts.find((f) => f.field_name === "bedrooms")!;
    expect(bedrooms.counts[0]).toMatchObject({ count: 2, value: "3" });
    const price = r.facet_counts.find((f) => f.field_name === "price")!;
    expect(price.stats).toMatchObject({ min: 900000, max: 3000000, sum: 6600000, avg: 1650000, total_values: 4 });
  });

  it("counts the matches in the facets' pass, with scalar, array or no match at all", async () => {
    const plain = await run({ q: "*", filter_by: "bedrooms:>=3" });
    expect(plain.found).toBe(3);
    for (const facet_by of ["location_city", "bedrooms,price", "features", "features,location_city"]) {
      const r = await run({ q: "*", filter_by: "bedrooms:>=3", facet_by, per_page: 1 });
      expect(r.found, facet_by).toBe(3);
      expect(r.hits).toHaveLength(1);
    }
    const none = await run({ q: "*", filter_by: "bedrooms:>=9", facet_by: "location_city,bedrooms" });
    expect(none.found).toBe(0);
    expect(none.facet_counts.map((f) => f.counts.length)).toEqual([0, 0]);
    const priced = await run({ q: "*", filter_by: "bedrooms:>=3", facet_by: "price,bedrooms" });
    expect(priced.facet_counts[0].stats).toMatchObject({ min: 1200000, max: 3000000, sum: 5700000, avg: 1900000, total_values: 3 });
    expect(priced.facet_counts[1].stats).toMatchObject({ min: 3, max: 4, sum: 10, total_values: 2 });
  });

  it("counts text matches beside the ranking, also for a page past the end, with or without filters", async () => {
    const textOnly = await run({ q: "apartamento", query_by: "title", per_page: 1 });
    const filtered = await run({ q: "apartamento", query_by: "title", filter_by: "id:*", per_page: 1 });
    expect(textOnly.found).toBe(2);
    expect(filtered.found).toBe(2);
    expect(textOnly.hits.map((h) => h.document.id)).toEqual(filtered.hits.map((h) => h.document.id));
    expect(textOnly.hits[0].text_match).toBe(filtered.hits[0].text_match);
    for (const p of [{}, { filter_by: "id:*" }]) {
      const past = await run({ q: "apartamento", query_by: "title", per_page: 1, page: 5, ...p });
      expect(past.found).toBe(2);
      expect(past.hits).toEqual([]);
    }
    expect((await run({ q: "apartamento", query_by: "title", per_page: 0 })).found).toBe(2);
    expect((await run({ q: "nadaassim", query_by: "title" })).found).toBe(0);
  });

  it("ranks by text match, highlights with <mark>, and sorts by fields and distance", async () => {
    const r = await run({ q: "pinheiros amplo", query_by: "title,description" });
    expect(r.hits[0].document.title).toBe("Apartamento amplo em Pinheiros");
    expect(r.hits[0].text_match).toBeGreaterThan(0);
    expect(r.hits[0].highlights[0]).toMatchObject({ field: "title", snippet: "Apartamento <mark>amplo</mark> em <mark>Pinheiros</mark>" });
    const byPrice = await run({ q: "*", sort_by: "price:asc" });
    expect(byPrice.hits.map((h) => h.document.price)).toEqual([900000, 1200000, 1500000, 3000000]);
    const near = await run({ q: "*", sort_by: "location(-22.89, -47.05):asc" });
    expect(near.hits[0].document.location_city).toBe("Campinas");
    expect(near.hits[0].geo_distance_meters!.location).toBeLessThan(2000);
    const prefix = await run({ q: "Cob", query_by: "title" });
    expect(prefix.hits[0].highlights[0].snippet).toBe("<mark>Cob</mark>ertura em Moema");
  });

  it("rejects bad parameters with Typesense's messages", async () => {
    const bad: [RawSearchParams, RegExp][] = [
      [{}, /Parameter `q` is required/],
      [{ q: "casa" }, /No search fields specified/],
      [{ q: "*", per_page: 251 }, /Only upto 250 hits/],
      [{ q: "*", page: "x" }, /`page` must be an unsigned integer/],
      [{ q: "*", sort_by: "price" }, /`sort_by` is malformed/],
      [{ q: "*", sort_by: "a:asc,b:asc,c:asc,d:asc" }, /upto 3 sort fields/],
      [{ q: "*", sort_by: "description:asc" }, /Could not find a field named `description` in the schema for sorting/],
      [{ q: "*", sort_by: "price:up" }, /should be either ASC or DESC/],
      [{ q: "*", facet_by: "description" }, /Could not find a facet field named `description`/],
      [{ q: "x", query_by: "price" }, /should be a string or a string array/],
    ];
    for (const [p, msg] of bad) expect(() => toSearchRequest(p, { maxPerPage: 250 }), JSON.stringify(p)).toThrow(msg);
  });

  it("keeps the tenant filter outside the user's filter", async () => {
    const other = await makeTenant();
    await home("Apartamento de outra agência", "São Paulo", "Pinheiros", "1", 1, [], -23.5, -46.6, other.key);
    const r = await run({ q: "*", filter_by: "price:>0 || price:<=0 || id:*" });
    expect(r.found).toBe(4);
    expect(r.out_of).toBe(4);
  });
});

describe("partner networks", () => {
  it("a member sees the listings others share, marked isNetworkListing, public only, only with includeNetworks", async () => {
    const a = await makeTenant("Rede A");
    const b = await makeTenant("Rede B");
    const created = await call(networksRoute.POST, "POST", "/x", { key: a.key, body: { name: "Rede Paulista" } });
    expect(created.status).toBe(201);
    expect(created.body.inviteCode).toMatch(/^net_/);
    expect((await call(joinRoute.POST, "POST", "/x", { key: b.key, body: { inviteCode: created.body.inviteCode } })).status).toBe(200);
    expect((await call(joinRoute.POST, "POST", "/x", { key: b.key, body: { inviteCode: "net_wrong_code_123" } })).status).toBe(400);
    const shared = await home("Casa compartilhada no Morumbi", "São Paulo", "Morumbi", "2000000", 4, [], -23.6, -46.72, a.key);
    const notShared = await home("Casa não compartilhada", "São Paulo", "Morumbi", "2000000", 4, [], -23.6, -46.72, a.key);
    const share = await call(shareRoute.PUT, "PUT", "/x", {
      key: a.key,
      params: { id: created.body.id },
      body: { listingIds: [shared, notShared], shared: true },
    });
    expect(share.status).toBe(200);
    await call(shareRoute.PUT, "PUT", "/x", { key: a.key, params: { id: created.body.id }, body: { listingIds: [notShared], shared: false } });

    const withNet = await call(searchRoute.GET, "GET", "/x", { key: b.key, query: { query: "casa" } });
    expect(withNet.body.items.map((i: any) => [i.id, i.isNetworkListing])).toEqual([[shared, true]]);
    // Off air (suspended), it leaves the partners' searches.
    await call(listingRoute.PATCH, "PATCH", "/x", { key: a.key, params: { id: shared }, body: { stage: "suspended" } });
    expect((await call(searchRoute.GET, "GET", "/x", { key: b.key, query: { query: "casa" } })).body.total).toBe(0);
    await call(listingRoute.PATCH, "PATCH", "/x", { key: a.key, params: { id: shared }, body: { stage: "active" } });
    const without = await call(searchRoute.GET, "GET", "/x", { key: b.key, query: { query: "casa", includeNetworks: "false" } });
    expect(without.body.total).toBe(0);
    // B cannot share A's listing, nor share to a network it is not in.
    expect(
      (await call(shareRoute.PUT, "PUT", "/x", { key: b.key, params: { id: created.body.id }, body: { listingIds: [shared], shared: true } })).status,
    ).toBe(400);
    const c = await makeTenant("Rede C");
    expect(
      (await call(shareRoute.PUT, "PUT", "/x", { key: c.key, params: { id: created.body.id }, body: { listingIds: [shared], shared: true } })).status,
    ).toBe(404);
    expect((await call(searchRoute.GET, "GET", "/x", { key: c.key, query: { query: "casa" } })).body.total).toBe(0);
    const list = await call(networksRoute.GET, "GET", "/x", { key: a.key });
    expect(list.body.items[0]).toMatchObject({ name: "Rede Paulista", members: 2, sharedListings: 1 });
    expect(list.body.items[0]).not.toHaveProperty("inviteCode");
  });
});
