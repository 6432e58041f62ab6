/**
 * The Typesense engine against a real Typesense server (v27+), when one is configured:
 *   TYPESENSE_URL=http://localhost:8108 TYPESENSE_API_KEY=xyz npx vitest run test/integration/typesense-live.test.ts
 * A temporary collection is created and dropped; nothing else on the server is touched.
 * Without the two variables the suite is reported as skipped, with the reason printed.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "../../../lib/errors/domain-errors";
import type { SearchRequest, SearchScope } from "../../../lib/search/engine";
import { SEARCH_FIELDS } from "../../../lib/search/fields";
import { toSearchRequest, type RawSearchParams } from "../../../lib/search/params";
import type { DocumentAccess } from "../../../lib/search/typesense/to-typesense-doc";
import { TypesenseSearchEngine } from "../../../lib/search/typesense/typesense-engine";

const url = process.env.TYPESENSE_URL;
const apiKey = process.env.TYPESENSE_API_KEY;
const enabled = Boolean(url && apiKey);
if (!enabled) console.warn("typesense-live: skipped, TYPESENSE_URL and TYPESENSE_API_KEY are not set");

const T1 = randomUUID();
const T2 = randomUUID();
const BROKER = randomUUID();
const NET = randomUUID();
const collection = `listings_test_${randomBytes(5).toString("hex")}`;
let engine: TypesenseSearchEngine;

let seq = 0;
function listing(tenantId: string, over: Record<string, unknown>, acc: Partial<DocumentAccess> = {}) {
  const doc: Record<string, unknown> = Object.fromEntries(SEARCH_FIELDS.map((f) => [f.name, null]));
  Object.assign(doc, {
    id: randomUUID(),
    description: "",
    listingType: "sale",
    propertyType: "apartment",
    visibility: "public",
    stage: "active",
    features: [],
    propertyFeatures: [],
    buildingAmenities: [],
    hasPhotos: false,
    createdAt: 1_767_225_600 + seq++,
    updatedAt: 1_767_225_600,
    location_latitude: null,
    location_longitude: null,
    priceFormatted: null,
    priceVisibility: "public",
    ...over,
  });
  return { doc, access: { tenantId, assignedToId: null, createdById: null, propertyCreatedById: null, networkIds: [], ...acc } };
}

const docs = [
  listing(T1, {
    title: "Apartamento claro em Pinheiros",
    location_city: "São Paulo",
    location_neighborhood: "Pinheiros",
    price: 900000,
    bedrooms: 2,
    features: ["Varanda", "Churrasqueira"],
    hasPhotos: true,
    location_latitude: -23.5665,
    location_longitude: -46.6915,
  }),
  listing(T1, {
    title: "Apartamento amplo em Pinheiros",
    location_city: "São Paulo",
    location_neighborhood: "Pinheiros",
    price: 1500000,
    bedrooms: 3,
    features: ["Varanda"],
    location_latitude: -23.567,
    location_longitude: -46.69,
  }),
  listing(
    T1,
    {
      title: "Cobertura em Moema",
      location_city: "São Paulo",
      location_neighborhood: "Moema",
      price: 3000000,
      bedrooms: 4,
      visibility: "private",
      location_latitude: -23.6009,
      location_longitude: -46.6658,
    },
    { assignedToId: BROKER },
  ),
  listing(T1, {
    title: "Casa privada em Campinas",
    location_city: "Campinas",
    price: 1200000,
    bedrooms: 3,
    visibility: "private",
    stage: "draft",
    location_latitude: -22.8923,
    location_longitude: -47.0557,
  }),
  // Tenant 2: one public listing shared to the network, one private shared (must never show), one not shared,
  // and one shared whose price is private (partners see it without its price).
  listing(
    T2,
    {
      title: "Loft compartilhado em Pinheiros",
      location_city: "São Paulo",
      price: 800000,
      bedrooms: 1,
      location_latitude: -23.566,
      location_longitude: -46.69,
    },
    { networkIds: [NET], onAir: true },
  ),
  listing(
    T2,
    { title: "Loft privado em Pinheiros", location_city: "São Paulo", price: 700000, bedrooms: 1, visibility: "private" },
    { networkIds: [NET], onAir: true },
  ),
  listing(T2, { title: "Studio em Pinheiros", location_city: "São Paulo", price: 600000, bedrooms: 1 }),
  listing(
    T2,
    {
      title: "Flat com preço sob consulta",
      location_city: "São Paulo",
      price: 1234567,
      priceFormatted: "R$ 1.234.567,00",
      priceVisibility: "private",
      bedrooms: 1,
    },
    { networkIds: [NET], onAir: true },
  ),
];
const idOf = (title: string) => String(docs.find((d) => d.doc.title === title)!.doc.id);

const own: SearchScope = { tenantId: T1, access: { kind: "all" }, networkIds: [] };
const run = (p: RawSearchParams, scope: SearchScope = own) => engine.search(scope, toSearchRequest(p, { maxPerPage: 250 }));
const titles = (r: { hits: { document: Record<string, unknown> }[] }) => r.hits.map((h) => String(h.document.title)).sort();

describe.skipIf(!enabled)("Typesense engine, live server", () => {
  beforeAll(async () => {
    engine = new TypesenseSearchEngine(url!, apiKey!, collection, { numRetries: 1 });
    await expect(engine.ensureCollection()).resolves.toMatchObject({ created: true });
    await expect(engine.ensureCollection()).resolves.toEqual({ created: false, addedFields: [], mismatchedFields: [] });
    await expect(engine.upsertDocuments(docs)).resolves.toEqual({ upserted: docs.length });
  });

  afterAll(async () => {
    await engine?.client
      .collections(collection)
      .delete()
      .catch(() => undefined);
  });

  it("keeps tenants apart, and the hit document is the stored one", async () => {
    const r1 = await run({ q: "*", per_page: 50 });
    expect(titles(r1)).toEqual(["Apartamento amplo em Pinheiros", "Apartamento claro em Pinheiros", "Casa privada em Campinas", "Cobertura em Moema"]);
    expect(r1.found).toBe(4);
    expect(r1.out_of).toBe(4); // the scope's size, not the collection's (7)
    expect(r1.hits.every((h) => !h.isNetworkListing)).toBe(true);
    const first = r1.hits.find((h) => h.document.title === "Apartamento claro em Pinheiros")!.document;
    const stored = docs[0].doc;
    expect(first).toEqual(stored);
    const r2 = await run({ q: "*", per_page: 50 }, { tenantId: T2, access: { kind: "all" }, networkIds: [] });
    expect(r2.found).toBe(4);
  });

  it("a filter cannot widen the tenant scope", async () => {
    const r = await run({ q: "*", filter_by: "title:nothing || id:* || visibility:=[public, private]", per_page: 50 });
    expect(r.found).toBe(4);
    const foreign = await run({ q: "*", filter_by: `id:[${idOf("Studio em Pinheiros")}]` });
    expect(foreign.found).toBe(0);
    expect(() => toSearchRequest({ q: "*", filter_by: `tenant_id:=${T2}` }, { maxPerPage: 10 })).toThrow(DomainError);
  });

  it("shares only other tenants' public listings of the caller's networks", async () => {
    const r = await run({ q: "*", per_page: 50 }, { ...own, networkIds: [NET] });
    expect(r.found).toBe(6);
    const shared = r.hits.filter((h) => h.isNetworkListing);
    expect(shared.map((h) => h.document.title).sort()).toEqual(["Flat com preço sob consulta", "Loft compartilhado em Pinheiros"]);
  });

  it("a partner never sees a private price: blank in the hit, and missing to filters, sorts and facets", async () => {
    const partner: SearchScope = { ...own, networkIds: [NET] };
    const secret = idOf("Flat com preço sob consulta");
    for (const dir of ["asc", "desc"]) {
      const r = await run({ q: "*", per_page: 50, sort_by: `price:${dir}`, facet_by: "price" }, partner);
      const last = r.hits.at(-1)!.document;
      expect(last.id, dir).toBe(secret);
      expect(last).toMatchObject({ price: null, priceFormatted: null });
      const price = r.facet_counts.find((f) => f.field_name === "price")!;
      expect(price.counts.map((c) => c.value)).not.toContain("1234567");
      expect(price.stats).toMatchObject({ min: 800000, max: 3000000 });
      expect(JSON.stringify(r)).not.toContain("1234567");
    }
    const ids = async (filter_by: string) => (await run({ q: "*", per_page: 50, filter_by }, partner)).hits.map((h) => h.document.id);
    for (const f of ["price:=1234567", "price:>1000000", "price:[1200000..1300000]"]) expect(await ids(f), f).not.toContain(secret);
    for (const f of ["price:!=1234567", "price:!=1", "price:!=[1200000..1300000]"]) expect(await ids(f), f).toContain(secret);
    // Its own tenant sees and filters the price as usual.
    const mine = await run({ q: "*", filter_by: "price:=1234567" }, { tenantId: T2, access: { kind: "all" }, networkIds: [NET] });
    expect(mine.hits.map((h) => h.document.price)).toEqual([1234567]);
  });

  it("restricted access: public listings plus the member's own", async () => {
    const r = await run({ q: "*", per_page: 50 }, { ...own, access: { kind: "restricted", userId: BROKER } });
    expect(titles(r)).toEqual(["Apartamento amplo em Pinheiros", "Apartamento claro em Pinheiros", "Cobertura em Moema"]);
  });

  it("public surfaces: public listings in the active stage", async () => {
    const r = await run({ q: "*", per_page: 50 }, { ...own, publicOnly: { activeStage: "active" } });
    expect(titles(r)).toEqual(["Apartamento amplo em Pinheiros", "Apartamento claro em Pinheiros"]);
  });

  it("filters: numbers, exact strings, arrays, bools, prefixes, geo, negation including missing values", async () => {
    expect(titles(await run({ q: "*", filter_by: "price:[1000000..2000000]" }))).toEqual(["Apartamento amplo em Pinheiros", "Casa privada em Campinas"]);
    expect(titles(await run({ q: "*", filter_by: "location_city:=sao paulo && bedrooms:>=3" }))).toEqual([
      "Apartamento amplo em Pinheiros",
      "Cobertura em Moema",
    ]);
    expect(titles(await run({ q: "*", filter_by: "features:=churrasqueira" }))).toEqual(["Apartamento claro em Pinheiros"]);
    expect(titles(await run({ q: "*", filter_by: "hasPhotos:true" }))).toEqual(["Apartamento claro em Pinheiros"]);
    expect(titles(await run({ q: "*", filter_by: "location_neighborhood:Pinh*" }))).toEqual([
      "Apartamento amplo em Pinheiros",
      "Apartamento claro em Pinheiros",
    ]);
    expect(titles(await run({ q: "*", filter_by: "location_neighborhood:=Mo*" }))).toEqual(["Cobertura em Moema"]);
    expect(titles(await run({ q: "*", filter_by: "location:(-23.5665, -46.6915, 1 km)" }))).toEqual([
      "Apartamento amplo em Pinheiros",
      "Apartamento claro em Pinheiros",
    ]);
    // NOT exact includes the document without a neighborhood (Campinas).
    expect(titles(await run({ q: "*", filter_by: "location_neighborhood:!=Pinheiros" }))).toEqual(["Casa privada em Campinas", "Cobertura em Moema"]);
    expect((await run({ q: "*", filter_by: "bedrooms:[]" })).found).toBe(0);
    expect((await run({ q: "*", filter_by: "hasPhotos:!=[true, false]" })).found).toBe(0);
    expect((await run({ q: "*", filter_by: "id:!=*" })).found).toBe(0);
  });

  it("facets over all matches, with numeric stats", async () => {
    const r = await run({ q: "*", facet_by: "location_city,bedrooms,price", per_page: 1 });
    const city = r.facet_counts.find((f) => f.field_name === "location_city")!;
    expect(city.counts[0]).toEqual({ count: 3, highlighted: "São Paulo", value: "São Paulo" });
    expect(city.stats.total_values).toBe(2);
    const price = r.facet_counts.find((f) => f.field_name === "price")!;
    expect(price.stats).toMatchObject({ min: 900000, max: 3000000, sum: 6600000, avg: 1650000 });
  });

  it("sorts by fields and distance, ranks text and highlights it", async () => {
    const byPrice = await run({ q: "*", sort_by: "price:asc" });
    expect(byPrice.hits.map((h) => h.document.price)).toEqual([900000, 1200000, 1500000, 3000000]);
    const near = await run({ q: "*", sort_by: "location(-22.89, -47.05):asc" });
    expect(near.hits[0].document.location_city).toBe("Campinas");
    expect(near.hits[0].geo_distance_meters!.location).toBeLessThan(2000);
    const text = await run({ q: "amplo pinheiros", query_by: "title" });
    expect(text.hits[0].document.title).toBe("Apartamento amplo em Pinheiros");
    expect(Number.isSafeInteger(text.hits[0].text_match)).toBe(true);
    expect(text.hits[0].highlights[0]).toMatchObject({ field: "title" });
    expect(text.hits[0].highlights[0].snippet).toContain("<mark>amplo</mark>");
    const wildcard = await run({ q: "*" });
    expect(wildcard.hits[0]).not.toHaveProperty("text_match");
    expect(wildcard.hits[0].highlights).toEqual([]);
  });

  it("the server's 4xx is a 400 DomainError", async () => {
    const base = toSearchRequest({ q: "*" }, { maxPerPage: 10 });
    const tooMany: SearchRequest = { ...base, perPage: 300 };
    await expect(engine.search(own, tooMany)).rejects.toMatchObject({ kind: "invalid", code: "invalid_search" });
  });

  it("deletes documents by id", async () => {
    await expect(engine.deleteDocuments([idOf("Casa privada em Campinas"), "not-there"])).resolves.toEqual({ deleted: 1 });
    expect((await run({ q: "*" })).found).toBe(3);
  });
});
