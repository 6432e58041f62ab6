/**
 * The site's catalogue through `/api/sites`: search with its automatic filters, property detail,
 * broker cards, the public broker list and similar listings; the public document allow-list,
 * and another tenant's ids seeing nothing.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { members } from "../../../db/schema";
import * as brokerRoute from "../../../app/api/sites/[siteId]/listings/[listingId]/broker/route";
import * as similarRoute from "../../../app/api/sites/[siteId]/listings/[listingId]/similar/route";
import * as brokersRoute from "../../../app/api/sites/[siteId]/brokers/public/route";
import * as propertyRoute from "../../../app/api/sites/[siteId]/property/[id]/route";
import * as searchRoute from "../../../app/api/sites/[siteId]/search/route";
import * as siteRoute from "../../../app/api/v1/sites/[siteId]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as joinRoute from "../../../app/api/v1/settings/networks/join/route";
import * as shareRoute from "../../../app/api/v1/settings/networks/[id]/listings/route";
import * as networksRoute from "../../../app/api/v1/settings/networks/route";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { COMMON_FIELDS, DETAIL_FIELDS, PRIMARY_MARKET_FIELDS } from "../../../lib/sites/public-fields";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let ip = 0;
const from = () => ({ [CLIENT_ADDRESS_HEADER]: `10.9.${Math.floor(++ip / 250)}.${ip % 250}` });

let a: TestTenant; // the site's tenant
let b: TestTenant; // another agency, in a network with `a`
let site: { id: string };
let siteWithNetwork: { id: string };
const id: Record<string, string> = {};
const code: Record<string, string> = {};
let broker: { userId: string };

async function listing(
  t: TestTenant,
  key: string,
  o: {
    title: string;
    price?: string;
    priceVisibility?: "public" | "private";
    visibility?: "public" | "private";
    stage?: string;
    type?: string;
    city?: string;
    neighborhood?: string;
    bedrooms?: number;
    area?: string;
    assignedToId?: string | null;
    photos?: number;
    propertyType?: string;
  },
) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: {
        type: o.propertyType ?? "apartment",
        bedrooms: o.bedrooms ?? 3,
        totalArea: o.area ?? "100",
        assignedToId: o.assignedToId ?? null,
        media: Array.from({ length: o.photos ?? 0 }, (_, i) => ({ url: `https://img.example.com/${key}-${i}.jpg`, isPrimary: i === 0 })),
      },
      location: { neighborhood: o.neighborhood ?? "Pinheiros", city: o.city ?? "São Paulo", state: "SP", latitude: -23.5612345, longitude: -46.6798765 },
      listings: [
        {
          title: o.title,
          type: o.type ?? "sale",
          price: o.price ?? "800000",
          priceVisibility: o.priceVisibility ?? "public",
          visibility: o.visibility ?? "public",
          stage: o.stage ?? "active",
        },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  id[key] = res.body.listings[0].id;
  code[key] = res.body.listings[0].listingCode;
}

const search = (s: { id: string }, body: unknown) => call(searchRoute.POST, "POST", "/x", { body, params: { siteId: s.id }, headers: from() });
const ids = (res: { body: any }) => res.body.hits.map((h: any) => h.document.id as string).sort();

beforeAll(async () => {
  a = await makeTenant("Imobiliária do Site");
  b = await makeTenant("Agência Parceira");
  broker = await makeMember(a, "broker", "broad", { phone: "+5511988887777" });
  await listing(a, "open", { title: "Apartamento em Pinheiros com varanda", photos: 2, assignedToId: broker.userId });
  await listing(a, "near", { title: "Apartamento em Pinheiros reformado", price: "850000", bedrooms: 3, photos: 1 });
  await listing(a, "far", { title: "Apartamento no Centro do Rio", city: "Rio de Janeiro", neighborhood: "Centro", price: "3000000", bedrooms: 1 });
  await listing(a, "house", { title: "Casa em Pinheiros", propertyType: "house" });
  await listing(a, "rent", { title: "Apartamento para alugar em Pinheiros", type: "rental", price: "4500" });
  await listing(a, "secretPrice", { title: "Cobertura em Pinheiros sob consulta", price: "7654321", priceVisibility: "private" });
  await listing(a, "private", { title: "Apartamento privado em Pinheiros", visibility: "private" });
  await listing(a, "draft", { title: "Apartamento em rascunho em Pinheiros", stage: "draft" });
  await listing(b, "other", { title: "Apartamento da parceira em Pinheiros" });
  const net = await call(networksRoute.POST, "POST", "/x", { key: a.key, body: { name: "Rede" } });
  expect((await call(joinRoute.POST, "POST", "/x", { key: b.key, body: { inviteCode: net.body.inviteCode } })).status).toBe(200);
  expect((await call(shareRoute.PUT, "PUT", "/x", { key: b.key, params: { id: net.body.id }, body: { listingIds: [id.other], shared: true } })).status).toBe(
    200,
  );
  site = await makeSite(a, { listingCriteria: { propertyTypes: ["apartment"], locations: ["São Paulo", "Rio de Janeiro"] } });
  siteWithNetwork = await makeSite(a, { includeNetworkListings: true });
});

describe("POST /api/sites/{siteId}/search", () => {
  it("finds only public listings in the active stage that match the site's criteria, never another tenant's", async () => {
    const res = await search(site, { q: "*", per_page: 50 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ids(res)).toEqual([id.open, id.near, id.far, id.rent, id.secretPrice].sort());
    expect(res.body).toMatchObject({ found: 5, page: 1 });
    expect(typeof res.body.search_time_ms).toBe("number");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("includes network listings only when the site says so", async () => {
    expect(ids(await search(site, { q: "parceira" }))).toEqual([]);
    expect(ids(await search(siteWithNetwork, { q: "parceira" }))).toEqual([id.other]);
  });

  it("lets filter_by narrow but never widen, and refuses non-public fields", async () => {
    const narrowed = await search(site, { q: "*", filter_by: "location_city:=`Rio de Janeiro`" });
    expect(ids(narrowed)).toEqual([id.far]);
    const widen = await search(site, { q: "*", filter_by: "propertyType:=house || listingType:=rental", per_page: 50 });
    expect(ids(widen)).toEqual([id.rent]);
    for (const f of ["visibility:=private", "stage:=draft", "leadsCount:>0", "tenant_id:=x"]) {
      const res = await search(site, { q: "*", filter_by: f });
      expect(res.status, f).toBe(400);
      expect(res.body.error.message).toMatch(/Could not find a filter field/);
    }
    const bad = await search(site, { q: "*", filter_by: "location_city:=`Rio" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/Unterminated backtick.*position/);
  });

  it("accepts only public fields in query_by, sort_by and facet_by, and counts facets", async () => {
    expect((await search(site, { q: "x", query_by: "internalNotes" })).status).toBe(400);
    expect((await search(site, { q: "*", sort_by: "viewsCount:desc" })).status).toBe(400);
    expect((await search(site, { q: "*", facet_by: "stage" })).status).toBe(400);
    const res = await search(site, { q: "*", facet_by: "location_city,listingType", sort_by: "price:asc" });
    expect(res.status).toBe(200);
    const city = res.body.facet_counts.find((f: any) => f.field_name === "location_city");
    expect(city.counts).toEqual(
      expect.arrayContaining([
        { value: "São Paulo", count: 4 },
        { value: "Rio de Janeiro", count: 1 },
      ]),
    );
    const words = await search(site, { q: "varanda", query_by: "title" });
    expect(ids(words)).toEqual([id.open]);
    expect(words.body.hits[0].highlights[0]).toEqual({ field: "title", snippet: expect.stringContaining("<mark>varanda</mark>") });
  });

  it("answers 400 naming the problem for per_page 251, unknown body fields and a bad site id", async () => {
    const big = await search(site, { q: "*", per_page: 251 });
    expect(big.status).toBe(400);
    expect(big.body.error.message).toContain("per_page");
    const unknown = await search(site, { q: "*", include_private: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("include_private");
    expect((await search({ id: "not-a-uuid" }, { q: "*" })).body.error.message).toBe("Site not found");
  });

  it("builds hit documents from the public allow-list: rounded coordinates, private price as Consulte", async () => {
    const res = await search(site, { q: "*", per_page: 50 });
    const allowed = new Set<string>([...COMMON_FIELDS, ...PRIMARY_MARKET_FIELDS]);
    for (const h of res.body.hits) for (const k of Object.keys(h.document)) expect(allowed.has(k), k).toBe(true);
    const open = res.body.hits.find((h: any) => h.document.id === id.open).document;
    expect(open).toMatchObject({
      location_latitude: -23.561,
      location_longitude: -46.68,
      title_en: "",
      description_es: "",
      price: 800000,
      isPrimaryMarket: false,
      marketType: "secondary",
    });
    expect(open.priceFormatted).toMatch(/^R\$\s800\.000,00$/);
    const secret = res.body.hits.find((h: any) => h.document.id === id.secretPrice).document;
    expect(secret).toMatchObject({ price: null, priceFormatted: "Consulte" });
    expect(JSON.stringify(res.body)).not.toContain("7654321");
  });
});

describe("GET /api/sites/{siteId}/property/{id}", () => {
  const get = (s: { id: string }, ref: string) => call(propertyRoute.GET, "GET", "/x", { params: { siteId: s.id, id: ref }, headers: from() });

  it("answers the detail document by UUID or by listing code", async () => {
    const byId = await get(site, id.open);
    expect(byId.status).toBe(200);
    const allowed = new Set<string>([...COMMON_FIELDS, ...DETAIL_FIELDS, ...PRIMARY_MARKET_FIELDS]);
    for (const k of Object.keys(byId.body)) expect(allowed.has(k), k).toBe(true);
    expect(byId.body).toMatchObject({ id: id.open, imageOrigins: ["original", "original"], hasProviderStagedPhotos: false, features: [] });
    expect((await get(site, code.open)).body.id).toBe(id.open);
    const noPhotos = await get(site, id.far);
    expect(noPhotos.body).not.toHaveProperty("imageOrigins");
  });

  it("answers 404 Property not found for what the site may not show, whatever the id", async () => {
    for (const ref of [id.private, id.draft, id.house, id.other, "00000000-0000-4000-8000-000000000000", "no such code", "x".repeat(5000)]) {
      const res = await get(site, ref);
      expect(res.status, ref.slice(0, 40)).toBe(404);
      expect(res.body.error.message).toBe("Property not found");
    }
    expect((await get(siteWithNetwork, id.other)).status).toBe(200);
    // Codes are per tenant: the partner's code names this tenant's own listing here, never the partner's.
    const byCode = await get(site, code.other);
    expect(byCode.body.id ?? null).not.toBe(id.other);
  });

  it("answers 403 Site not active for an inactive site and 404 Site not found for an unknown one", async () => {
    const s = await makeSite(a);
    expect((await call(siteRoute.PATCH, "PATCH", "/x", { key: a.key, params: { siteId: s.id }, body: { active: false } })).status).toBe(200);
    const inactive = await get(s, id.open);
    expect(inactive.status).toBe(403);
    expect(inactive.body.error.message).toBe("Site not active");
    const unknown = await get({ id: "00000000-0000-4000-8000-000000000000" }, id.open);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Site not found");
  });
});

describe("broker cards", () => {
  const card = (s: { id: string }, ref: string, query: Record<string, string> = {}) =>
    call(brokerRoute.GET, "GET", "/x", { params: { siteId: s.id, listingId: ref }, query, headers: from() });

  it("gives the assigned broker's public card, else the listing's creator, and never an e-mail", async () => {
    const res = await card(site, id.open);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: broker.userId, name: "Corretor broker", imageUrl: null, phone: "+5511988887777", creci: null });
    const creator = await card(site, code.near);
    expect(creator.status).toBe(200);
    expect(creator.body.id).toBe(a.ownerId);
  });

  it("suppresses a partner network's listing, 400s an invalid tenantId, 404s an invisible listing", async () => {
    expect((await card(siteWithNetwork, id.other)).body).toEqual({ suppressed: true });
    expect((await card(site, id.open, { tenantId: "nope" })).status).toBe(400);
    expect((await card(site, id.open, { tenantId: b.tenantId })).status).toBe(404);
    expect((await card(site, id.open, { tenantId: a.tenantId })).status).toBe(200);
    expect((await card(site, id.private)).status).toBe(404);
  });
});

describe("GET /brokers/public", () => {
  const list = (s: { id: string }, idsParam?: string) =>
    call(brokersRoute.GET, "GET", "/x", { params: { siteId: s.id }, query: idsParam === undefined ? {} : { ids: idsParam }, headers: from() });

  it("answers active members of the site's tenant only, without e-mail", async () => {
    const inactive = await makeMember(a, "broker", "broad", { active: false });
    const res = await list(site, [broker.userId, b.ownerId, inactive.userId].join(","));
    expect(res.status).toBe(200);
    expect(res.body.brokers.map((x: any) => x.id)).toEqual([broker.userId]);
    expect(JSON.stringify(res.body)).not.toContain("@");
  });

  it("requires ids, at most 100 UUIDs", async () => {
    expect((await list(site)).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`).join(",");
    const res = await list(site, many);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("at most 100");
    expect((await list(site, "abc")).status).toBe(400);
  });
});

describe("GET /listings/{id}/similar", () => {
  const similar = (s: { id: string }, ref: string, query: Record<string, string> = {}) =>
    call(similarRoute.GET, "GET", "/x", { params: { siteId: s.id, listingId: ref }, query, headers: from() });

  it("ranks the same kind of listing nearby first, as cards without typology fields", async () => {
    const res = await similar(site, id.open);
    expect(res.status).toBe(200);
    const got = res.body.listings.map((l: any) => l.id);
    expect(got[0]).toBe(id.near);
    expect(got).not.toContain(id.open);
    expect(got).not.toContain(id.rent); // another business type
    expect(got).not.toContain(id.house); // another property type, and outside the criteria
    expect(res.body.total).toBe(got.length);
    const c = res.body.listings[0];
    expect(Object.keys(c).sort()).toEqual([
      "businessType",
      "coverImage",
      "createdAt",
      "description",
      "featured",
      "id",
      "listingCode",
      "location",
      "path",
      "price",
      "priceVisibility",
      "property",
      "status",
      "title",
      "updatedAt",
    ]);
    expect(c.location.number).toBeNull();
    expect(c.coverImage).toEqual({ src: expect.stringContaining("near-0"), alt: expect.any(String) });
  });

  it("is empty for a missing or invisible reference, and refuses limit 13", async () => {
    expect((await similar(site, id.private)).body).toEqual({ listings: [], total: 0 });
    expect((await similar(site, "00000000-0000-4000-8000-000000000000")).body).toEqual({ listings: [], total: 0 });
    const res = await similar(site, id.open, { limit: "13" });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("limit");
    expect((await similar(site, id.open, { limit: "1" })).body.listings).toHaveLength(1);
  });
});

// Last in the file: the listing it adds would change the similar listings' ranking above.
describe("GET /listings/{id}/broker after the broker leaves", () => {
  const card = (ref: string) => call(brokerRoute.GET, "GET", "/x", { params: { siteId: site.id, listingId: ref }, headers: from() });

  it("falls back to the listing's creator when the assigned broker is no longer active", async () => {
    const gone = await makeMember(a, "broker", "broad");
    await listing(a, "goneBroker", { title: "Casa com corretor desligado", assignedToId: gone.userId });
    expect((await card(id.goneBroker)).body.id).toBe(gone.userId);
    await (await getDb()).update(members).set({ active: false }).where(eq(members.id, gone.userId));
    const res = await card(id.goneBroker);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(a.ownerId);
  });
});
