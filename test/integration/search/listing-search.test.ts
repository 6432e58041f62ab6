import { beforeAll, describe, expect, it } from "vitest";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import * as searchRoute from "../../../app/api/v1/real-estate/listings/search/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as propertyRoute from "../../../app/api/v1/real-estate/properties/[propertyId]/route";
import { eq } from "drizzle-orm";
import { getDb } from "../../../db/client";
import { inTransaction } from "../../../db/transaction";
import { listings } from "../../../db/schema";
import { reindexListings } from "../../../lib/search/index-listings";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
const ids: Record<string, string> = {};

type Home = {
  key: string;
  title: string;
  type?: string;
  price: string;
  bedrooms: number;
  area: string;
  hood: string;
  city: string;
  state: string;
  lat: number;
  lng: number;
  photos?: number;
  tour?: boolean;
  visibility?: string;
  propertyType?: string;
  street?: string;
  description?: string;
};

const HOMES: Home[] = [
  {
    key: "pinheiros",
    title: "Apartamento com varanda em Pinheiros",
    price: "950000",
    bedrooms: 2,
    area: "70",
    hood: "Pinheiros",
    city: "São Paulo",
    state: "SP",
    lat: -23.5665,
    lng: -46.6915,
    photos: 3,
    street: "Rua dos Pinheiros",
    description: "Perto do metrô Faria Lima, com piscina no condomínio.",
  },
  {
    key: "moema",
    title: "Cobertura duplex em Moema",
    price: "2400000",
    bedrooms: 4,
    area: "220",
    hood: "Moema",
    city: "São Paulo",
    state: "SP",
    lat: -23.6009,
    lng: -46.6658,
    photos: 5,
    tour: true,
    propertyType: "penthouse",
  },
  {
    key: "conceicao",
    title: "Casa na Vila Conceição",
    price: "1800000",
    bedrooms: 3,
    area: "180",
    hood: "Vila Conceição",
    city: "São Paulo",
    state: "SP",
    lat: -23.62,
    lng: -46.67,
    photos: 0,
    propertyType: "house",
  },
  {
    key: "copacabana",
    title: "Apartamento vista mar em Copacabana",
    type: "rental",
    price: "8500",
    bedrooms: 3,
    area: "120",
    hood: "Copacabana",
    city: "Rio de Janeiro",
    state: "RJ",
    lat: -22.9711,
    lng: -43.1822,
    photos: 2,
  },
  {
    key: "savassi",
    title: "Studio mobiliado na Savassi",
    type: "rental",
    price: "2800",
    bedrooms: 1,
    area: "35",
    hood: "Savassi",
    city: "Belo Horizonte",
    state: "MG",
    lat: -19.9386,
    lng: -43.9346,
    photos: 1,
    propertyType: "studio",
  },
  {
    key: "secret",
    title: "Apartamento reservado em Pinheiros",
    price: "700000",
    bedrooms: 2,
    area: "60",
    hood: "Pinheiros",
    city: "São Paulo",
    state: "SP",
    lat: -23.567,
    lng: -46.69,
    visibility: "private",
  },
];

async function create(h: Home, key = t.key) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key,
    body: {
      property: {
        type: h.propertyType ?? "apartment",
        bedrooms: h.bedrooms,
        totalArea: h.area,
        media: Array.from({ length: h.photos ?? 0 }, (_, i) => ({ url: `/demo/p${i}.svg` })),
        virtualTourUrl: h.tour ? "https://tour.example.com/x" : null,
      },
      location: { neighborhood: h.hood, city: h.city, state: h.state, latitude: h.lat, longitude: h.lng, street: h.street ?? null },
      listings: [
        {
          title: h.title,
          description: h.description,
          type: h.type ?? "sale",
          price: h.price,
          visibility: h.visibility ?? "public",
          stage: "active",
          status: "available",
        },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.listings[0].id as string;
}

const search = async (query: Record<string, string | string[]>, key = t.key) =>
  call(searchRoute.GET, "GET", "/api/v1/real-estate/listings/search", { key, query });
const keysOf = (body: any) => body.items.map((i: any) => Object.entries(ids).find(([, id]) => id === i.id)?.[0] ?? i.id).sort();

beforeAll(async () => {
  t = await makeTenant();
  for (const h of HOMES) ids[h.key] = await create(h);
});

describe("GET /listings/search", () => {
  it("answers the §2.3 item shape in the items/total/page/pageSize envelope", async () => {
    const res = await search({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 6, page: 1, pageSize: 20 });
    const item = res.body.items.find((i: any) => i.id === ids.moema);
    expect(item).toMatchObject({
      listingCode: expect.stringMatching(/^CO\d{4}$/),
      title: "Cobertura duplex em Moema",
      price: 2400000,
      location: { neighborhood: "Moema", city: "São Paulo", state: "SP" },
      features: { area: 220, rooms: 4 },
      isNetworkListing: false,
    });
    for (const k of ["createdAt", "updatedAt", "publishedAt"]) expect(item[k]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(JSON.stringify(res.body)).not.toMatch(/owner|internalNotes/);
  });

  it("searches text over title, code and address with accents, prefixes and a typo", async () => {
    expect(keysOf((await search({ query: "conceicao" })).body)).toEqual(["conceicao"]);
    expect(keysOf((await search({ query: "Cobert" })).body)).toEqual(["moema"]);
    expect(keysOf((await search({ query: "apartamentos pinheiros" })).body)).toEqual(["pinheiros", "secret"]);
    expect(keysOf((await search({ query: "Copacabnaa" })).body)).toEqual(["copacabana"]);
    const code = (await search({ query: "Moema" })).body.items[0].listingCode;
    expect(keysOf((await search({ query: code })).body)).toEqual(["moema"]);
  });

  it("applies every typed filter", async () => {
    const cases: [Record<string, string | string[]>, string[]][] = [
      [{ type: "rental" }, ["copacabana", "savassi"]],
      [{ visibility: "private" }, ["secret"]],
      [{ hasPhotos: "false" }, ["conceicao", "secret"]],
      [{ minPhotos: "3" }, ["moema", "pinheiros"]],
      [{ hasVirtualTour: "true" }, ["moema"]],
      [{ bedrooms: "3" }, ["conceicao", "copacabana", "moema"]],
      [{ minArea: "100", maxArea: "200" }, ["conceicao", "copacabana"]],
      [{ budget: "950000" }, ["copacabana", "pinheiros", "savassi", "secret"]],
      [{ propertyTypes: ["house", "Cobertura"] }, ["conceicao", "moema"]],
      [{ propertyTypes: "studio,house" }, ["conceicao", "savassi"]],
      [{ locations: ["Savassi", "Rio de Janeiro"] }, ["copacabana", "savassi"]],
      [{ locations: "Rua dos Pinheiros" }, ["pinheiros"]],
      [{ neighborhood: "vila conceicao" }, ["conceicao"]],
      [{ city: "Belo Horizonte" }, ["savassi"]],
      [{ state: "RJ" }, ["copacabana"]],
      [{ latitude: "-23.5665", longitude: "-46.6915", radiusKm: "1" }, ["pinheiros", "secret"]],
      [{ filter: "bedrooms:>=3 && price:<2000000" }, ["conceicao", "copacabana"]],
      [{ city: "São Paulo", filter: "location_neighborhood:=[Moema, Pinheiros]" }, ["moema", "pinheiros", "secret"]],
    ];
    for (const [query, expected] of cases) {
      const res = await search(query);
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(keysOf(res.body), JSON.stringify(query)).toEqual(expected);
      expect(res.body.total).toBe(expected.length);
    }
  });

  it("pages with pageSize up to 100", async () => {
    const p1 = await search({ pageSize: "4" });
    const p2 = await search({ pageSize: "4", page: "2" });
    expect(p1.body.items).toHaveLength(4);
    expect(p2.body.items).toHaveLength(2);
    expect(new Set([...p1.body.items, ...p2.body.items].map((i: any) => i.id)).size).toBe(6);
    expect((await search({ pageSize: "101" })).status).toBe(400);
  });

  it("answers malformed filters and parameters with a 400 that points at the problem", async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ filter: "bedrooms:>= && x" }, /filter: .*position/],
      [{ filter: "foo:1" }, /filter: Could not find a filter field named `foo`/],
      [{ filter: "(bedrooms:1" }, /unbalanced parentheses/],
      [{ filter: "price:abc" }, /price/],
      [{ latitude: "-23.5" }, /send all three/],
      [{ propertyTypes: "castle" }, /propertyTypes: 'castle'/],
      [{ hasPhotos: "yes" }, /hasPhotos/],
      [{ bedrooms: "two" }, /bedrooms/],
      [{ radiusKm: "-1", latitude: "0", longitude: "0" }, /radiusKm/],
      [{ sort: "price:asc" }, /sort/],
    ];
    for (const [query, msg] of cases) {
      const res = await search(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.message).toMatch(msg);
    }
  });

  it("is searchable at once after a change, and forgets deleted listings", async () => {
    const id = await create({
      key: "new",
      title: "Loft industrial no Brooklin",
      price: "600000",
      bedrooms: 1,
      area: "55",
      hood: "Brooklin",
      city: "São Paulo",
      state: "SP",
      lat: -23.61,
      lng: -46.69,
    });
    expect(keysOf((await search({ query: "loft" })).body)).toEqual([id]);
    await call(listingRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id }, body: { title: "Loft reformado no Brooklin", price: "650000" } });
    const after = (await search({ query: "reformado" })).body.items;
    expect(after.map((i: any) => i.price)).toEqual([650000]);
    await call(listingRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id } });
    expect((await search({ query: "loft" })).body.total).toBe(0);
  });

  it("never serves a cached result older than the last commit, even one made by another process", async () => {
    const before = await search({ query: "Savassi" });
    expect(before.body.items[0].title).toBe("Studio mobiliado na Savassi");
    // What another server process would do: change the row and reindex in its own transaction.
    const db = await getDb();
    await inTransaction(db, async (tx) => {
      await tx.update(listings).set({ title: "Studio reformado na Savassi" }).where(eq(listings.id, ids.savassi));
      await reindexListings(tx, t.tenantId, [ids.savassi]);
    });
    const after = await search({ query: "Savassi" });
    expect(after.body.items[0].title).toBe("Studio reformado na Savassi");
  });

  it("reflects property changes (bedrooms, photos) in the listing's document", async () => {
    const res = await call(propertyRoute.GET, "GET", "/x", {
      key: t.key,
      params: { propertyId: (await call(listingRoute.GET, "GET", "/x", { key: t.key, params: { id: ids.conceicao } })).body.propertyId },
    });
    const propertyId = res.body.property.id;
    await call(propertyRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { propertyId },
      body: { property: { media: [{ url: "/demo/a.svg" }, { url: "/demo/b.svg" }] } },
    });
    expect(keysOf((await search({ minPhotos: "2", city: "São Paulo", filter: "propertyType:=house" })).body)).toEqual(["conceicao"]);
  });
});

describe("tenant and access isolation in search", () => {
  it("never shows another tenant's listings, whatever the filter", async () => {
    const other = await makeTenant();
    await create(
      {
        key: "other",
        title: "Apartamento em Pinheiros de outra imobiliária",
        price: "1",
        bedrooms: 9,
        area: "10",
        hood: "Pinheiros",
        city: "São Paulo",
        state: "SP",
        lat: -23.56,
        lng: -46.69,
      },
      other.key,
    );
    const hostile = [
      `tenantId:=${other.tenantId}`,
      "bedrooms:>=0 || bedrooms:<0",
      "(bedrooms:9) || (bedrooms:!=9)",
      "id:*",
      "title:`x` || true",
      "title:'; drop table listings; --",
      "price:>0 || location:(-23.56, -46.69, 10000 km)",
      'title:"x" || id:!=*',
    ];
    for (const filter of hostile) {
      const res = await search({ filter });
      if (res.status === 200) {
        expect(
          res.body.items.every((i: any) => Object.values(ids).includes(i.id) || i.isNetworkListing === false),
          filter,
        ).toBe(true);
        expect(
          res.body.items.some((i: any) => i.title.includes("outra imobiliária")),
          filter,
        ).toBe(false);
      } else {
        expect(res.status, filter).toBe(400);
      }
    }
    const mine = await search({}, other.key);
    expect(mine.body.total).toBe(1);
  });

  it("restricted keys see public listings and their own private ones only", async () => {
    const broker = await makeMember(t, "broker", "restricted");
    const res = await search({ pageSize: "100" }, broker.key);
    expect(keysOf(res.body)).not.toContain("secret");
    const own = await create(
      {
        key: "own",
        title: "Sala comercial privada",
        price: "300000",
        bedrooms: 0,
        area: "40",
        hood: "Centro",
        city: "São Paulo",
        state: "SP",
        lat: -23.55,
        lng: -46.63,
        visibility: "private",
      },
      broker.key,
    );
    expect((await search({ visibility: "private" }, broker.key)).body.items.map((i: any) => i.id)).toEqual([own]);
    expect((await search({ visibility: "private" })).body.total).toBe(2);
  });
});
