/**
 * `GET /api/sites/{siteId}/map`: clusters and pins of the site's catalogue in a box, gridded on the
 * server; counts against the search's own total, filters, another tenant's listings never
 * appearing, only public (rounded) points, and clear 400s for a bad view.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as mapRoute from "../../../app/api/sites/[siteId]/map/route";
import * as searchRoute from "../../../app/api/sites/[siteId]/search/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let ip = 0;
const from = () => ({ [CLIENT_ADDRESS_HEADER]: `10.36.${Math.floor(++ip / 250)}.${ip % 250}` });

let a: TestTenant;
let b: TestTenant;
let siteA: { id: string };
let siteB: { id: string };
const id: Record<string, string> = {};
/** The stored (exact) points, which must never come out. */
const exact: Record<string, { lat: number; lng: number }> = {};

// Pinheiros, São Paulo; listings about 330 m apart along a line, each point with 7 decimals.
const P = { lat: -23.5612345, lng: -46.6798765 };

async function listing(
  t: TestTenant,
  key: string,
  o: {
    lat: number;
    lng: number;
    city?: string;
    price?: string;
    priceVisibility?: "public" | "private";
    visibility?: "public" | "private";
    stage?: string;
    bedrooms?: number;
    type?: string;
  },
) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: { type: o.type ?? "apartment", bedrooms: o.bedrooms ?? 2, totalArea: "80" },
      location: { neighborhood: "Pinheiros", city: o.city ?? "São Paulo", state: "SP", latitude: o.lat, longitude: o.lng },
      listings: [
        {
          title: `Apartamento ${key}`,
          type: "sale",
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
  exact[key] = { lat: o.lat, lng: o.lng };
}

const map = (s: { id: string }, query: Record<string, string>) => call(mapRoute.GET, "GET", "/x", { params: { siteId: s.id }, query, headers: from() });
const search = (s: { id: string }, body: unknown) => call(searchRoute.POST, "POST", "/x", { body, params: { siteId: s.id }, headers: from() });

// The city in view, and a box around Pinheiros only.
const CITY = { bbox: "-47.0,-24.0,-46.3,-23.3", zoom: "10" };
const STREETS = { bbox: "-46.70,-23.58,-46.64,-23.54", zoom: "18" };
const pinIds = (body: any) => body.pins.map((p: any) => p.id).sort();
const onGrid = (v: number) => Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-6;

beforeAll(async () => {
  a = await makeTenant("Imobiliária do Mapa");
  b = await makeTenant("Outra Imobiliária");
  for (let i = 0; i < 6; i++) await listing(a, `p${i}`, { lat: P.lat + i * 0.0030101, lng: P.lng + i * 0.0030203, bedrooms: i < 2 ? 4 : 2 });
  await listing(a, "secretPrice", { lat: P.lat - 0.0040123, lng: P.lng - 0.0040123, price: "7654321", priceVisibility: "private" });
  await listing(a, "bigPrice", { lat: P.lat - 0.0080123, lng: P.lng - 0.0080123, price: "23456789.5" });
  await listing(a, "private", { lat: P.lat + 0.0011111, lng: P.lng, visibility: "private" });
  await listing(a, "draft", { lat: P.lat + 0.0022222, lng: P.lng, stage: "draft" });
  await listing(a, "rio", { lat: -22.9068467, lng: -43.1728965, city: "Rio de Janeiro" });
  await listing(a, "house", { lat: P.lat + 0.0051111, lng: P.lng - 0.0051111, type: "house" });
  // The other agency: same streets, so only the scope can keep them apart.
  await listing(b, "b1", { lat: P.lat + 0.0001, lng: P.lng + 0.0001 });
  await listing(b, "b2", { lat: P.lat + 0.0061234, lng: P.lng + 0.0001 });
  siteA = await makeSite(a, { listingCriteria: { propertyTypes: ["apartment"] } });
  siteB = await makeSite(b);
});

describe("GET /api/sites/{siteId}/map", () => {
  it("clusters the whole city at a low zoom, the counts adding up to the total the search finds", async () => {
    const res = await map(siteA, CITY);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const counted = res.body.clusters.reduce((n: number, c: any) => n + c.count, 0) + res.body.pins.length;
    expect(counted).toBe(res.body.total);
    // p0..p5, secretPrice, bigPrice: public, active, apartments in the box; not Rio, the house, the private or draft ones.
    expect(res.body.total).toBe(8);
    const found = await search(siteA, { q: "*", filter_by: "location_city:=`São Paulo`", per_page: 0 });
    expect(found.body.found).toBe(8);
    expect(res.body.clusters.length).toBeGreaterThan(0);
    for (const c of res.body.clusters) {
      expect(c.count).toBeGreaterThan(4);
      expect(c.bbox.south).toBeLessThanOrEqual(c.lat);
      expect(c.bbox.north).toBeGreaterThanOrEqual(c.lat);
      expect(c.bbox.west).toBeLessThanOrEqual(c.lng);
      expect(c.bbox.east).toBeGreaterThanOrEqual(c.lng);
    }
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("ratelimit")).toBeTruthy();
  });

  it("answers pins with public fields at a street zoom", async () => {
    const res = await map(siteA, STREETS);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.clusters).toEqual([]);
    expect(pinIds(res.body)).toEqual([id.p0, id.p1, id.p2, id.p3, id.p4, id.p5, id.secretPrice, id.bigPrice].sort());
    expect(res.body.total).toBe(8);
    const pin = (k: string) => res.body.pins.find((p: any) => p.id === id[k]);
    expect(pin("p0")).toEqual({ id: id.p0, lat: -23.561, lng: -46.68, price: 800000, type: "apartment" });
    expect(pin("secretPrice").price).toBeNull();
    // Above 2^24: the exact price, not the index column's 32-bit float.
    expect(pin("bigPrice").price).toBe(23456789.5);
    for (const p of res.body.pins) expect(Object.keys(p).sort()).toEqual(["id", "lat", "lng", "price", "type"]);
  });

  it("applies the search's filters and text", async () => {
    const rich = await map(siteA, { ...STREETS, filter_by: "bedrooms:>=4" });
    expect(pinIds(rich.body)).toEqual([id.p0, id.p1].sort());
    expect(rich.body.total).toBe(2);
    const cheap = await map(siteA, { ...CITY, filter_by: "price:<1000000" });
    // A private price reads as missing, as in the search: it never matches a price filter.
    expect(cheap.body.total).toBe(6);
    const text = await map(siteA, { ...STREETS, q: "p3" });
    expect(pinIds(text.body)).toEqual([id.p3]);
    // The site's criteria stay outside the caller's filter: it cannot widen them.
    const widen = await map(siteA, { ...STREETS, filter_by: "propertyType:=house" });
    expect(widen.body.total).toBe(0);
    expect((await map(siteA, { ...STREETS, filter_by: "visibility:=private" })).status).toBe(400);
  });

  it("never shows another tenant's listings", async () => {
    const mine = await map(siteA, STREETS);
    for (const k of ["b1", "b2", "private", "draft"]) expect(pinIds(mine.body)).not.toContain(id[k]);
    const theirs = await map(siteB, STREETS);
    expect(pinIds(theirs.body)).toEqual([id.b1, id.b2].sort());
    const city = await map(siteB, CITY);
    expect(city.body.total).toBe(2);
  });

  it("never gives an exact point away, not even through the box edges", async () => {
    for (const q of [CITY, STREETS, { bbox: "-180,-90,180,90", zoom: "0" }, { bbox: "-180,-90,180,90", zoom: "22" }]) {
      const res = await map(siteA, q);
      expect(res.status).toBe(200);
      const values = [
        ...res.body.pins.flatMap((p: any) => [p.lat, p.lng]),
        ...res.body.clusters.flatMap((c: any) => [c.bbox.west, c.bbox.south, c.bbox.east, c.bbox.north]),
      ];
      for (const v of values) expect(onGrid(v), `${v} is not a 3-decimal point`).toBe(true);
      for (const k of Object.keys(exact)) for (const v of values) expect(v === exact[k].lat || v === exact[k].lng).toBe(false);
    }
    // p0's stored latitude -23.5612345 is inside a box whose north edge is -23.5612, its public point -23.561 is not:
    // the box tests the public point, so an edge cannot be moved step by step to find the stored one.
    const edge = await map(siteA, { bbox: "-46.69,-23.57,-46.67,-23.5612", zoom: "18" });
    expect(pinIds(edge.body)).not.toContain(id.p0);
    const wider = await map(siteA, { bbox: "-46.69,-23.57,-46.67,-23.5609", zoom: "18" });
    expect(pinIds(wider.body)).toContain(id.p0);
  });

  it("refuses a bad view with a 400 naming the parameter", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ zoom: "10" }, "bbox"],
      [{ bbox: "1,2,3", zoom: "10" }, "bbox"],
      [{ bbox: "a,-24,-46,-23", zoom: "10" }, "bbox"],
      [{ bbox: "Infinity,-24,-46,-23", zoom: "10" }, "bbox"],
      [{ bbox: "-47,-24,-46,-23,1", zoom: "10" }, "bbox"],
      [{ bbox: "-200,-24,-46,-23", zoom: "10" }, "bbox"],
      [{ bbox: "-47,-95,-46,-23", zoom: "10" }, "bbox"],
      [{ bbox: "-46,-24,-47,-23", zoom: "10" }, "bbox"],
      [{ bbox: "-47,-23,-46,-24", zoom: "10" }, "bbox"],
      [{ bbox: "-47,-24,-46,-23" }, "zoom"],
      [{ bbox: "-47,-24,-46,-23", zoom: "23" }, "zoom"],
      [{ bbox: "-47,-24,-46,-23", zoom: "1.5" }, "zoom"],
      [{ bbox: "-47,-24,-46,-23", zoom: "-1" }, "zoom"],
      [{ bbox: "-47,-24,-46,-23", zoom: "10", per_page: "5" }, "per_page"],
    ];
    for (const [query, param] of cases) {
      const res = await map(siteA, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(query)).toContain(param);
    }
    expect((await map({ id: "00000000-0000-4000-8000-000000000000" }, CITY)).status).toBe(404);
  });
});
