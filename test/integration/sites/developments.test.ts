/**
 * Developments on a public site: typologies (active and shown only), units (shown only, no
 * reservation data, ordered by number), the typology's public listings and the building record,
 * each scoped to the site's tenant.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as buildingRoute from "../../../app/api/sites/[siteId]/buildings/[buildingId]/route";
import * as typologyListingsRoute from "../../../app/api/sites/[siteId]/typologies/[typologyId]/listings/route";
import * as typologyRoute from "../../../app/api/sites/[siteId]/typologies/[typologyId]/route";
import * as unitsRoute from "../../../app/api/sites/[siteId]/typologies/[typologyId]/units/route";
import * as typologiesRoute from "../../../app/api/sites/[siteId]/typologies/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { buildings, typologies, units } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let ip = 0;
const headers = () => ({ [CLIENT_ADDRESS_HEADER]: `10.8.${Math.floor(++ip / 250)}.${ip % 250}` });

let a: TestTenant;
let b: TestTenant;
let site: { id: string };
let siteB: { id: string };
const id: Record<string, string> = {};

beforeAll(async () => {
  a = await makeTenant();
  b = await makeTenant();
  site = await makeSite(a);
  siteB = await makeSite(b);
  const db = await getDb();
  const [bl] = await db
    .insert(buildings)
    .values({ tenantId: a.tenantId, name: "Residencial Aurora", developer: "Construtora X", number: "1234", street: "Rua Secreta" })
    .returning();
  id.building = bl.id;
  const [t1, t2, hidden, inactive] = await db
    .insert(typologies)
    .values([
      { tenantId: a.tenantId, buildingId: bl.id, name: "3 dormitórios", order: 2, basePrice: "900000.00", totalArea: "98.50" },
      { tenantId: a.tenantId, buildingId: bl.id, name: "2 dormitórios", order: 1, basePrice: "650000.00" },
      { tenantId: a.tenantId, buildingId: bl.id, name: "Oculta", showOnSite: false },
      { tenantId: a.tenantId, buildingId: bl.id, name: "Inativa", active: false },
    ])
    .returning();
  Object.assign(id, { t1: t1.id, t2: t2.id, hidden: hidden.id, inactive: inactive.id });
  await db.insert(units).values([
    { tenantId: a.tenantId, typologyId: t1.id, unitNumber: "10", status: "sold", reservation: { buyer: "ZZBUYERZZ" } },
    { tenantId: a.tenantId, typologyId: t1.id, unitNumber: "2", status: "available" },
    { tenantId: a.tenantId, typologyId: t1.id, unitNumber: "3", status: "reserved", reservation: { buyer: "ZZBUYERZZ" } },
    { tenantId: a.tenantId, typologyId: t1.id, unitNumber: "1", status: "available", showOnSite: false },
  ]);
  const prop = await call(propertiesRoute.POST, "POST", "/x", {
    key: a.key,
    body: {
      property: { type: "apartment" },
      listings: [
        { title: "Aurora 3 dorms", type: "sale", visibility: "public", stage: "active", isPrimaryMarket: "true", typologyId: t1.id, price: "910000.00" },
        { title: "Aurora rascunho", type: "sale", visibility: "public", stage: "draft", isPrimaryMarket: "true", typologyId: t1.id },
        { title: "Aurora privado", type: "sale", visibility: "private", stage: "active", isPrimaryMarket: "true", typologyId: t1.id },
      ],
    },
  });
  expect(prop.status, JSON.stringify(prop.body)).toBe(201);
  id.listing = prop.body.listings[0].id;
});

const get = (route: { GET: any }, params: Record<string, string>, query: Record<string, string> = {}) =>
  call(route.GET, "GET", "/x", { params, query, headers: headers() });

describe("typologies", () => {
  it("lists a building's active, shown typologies in order, with unit counts", async () => {
    const res = await get(typologiesRoute, { siteId: site.id }, { buildingId: id.building });
    expect(res.status).toBe(200);
    expect(res.body.typologies.map((t: any) => t.name)).toEqual(["2 dormitórios", "3 dormitórios"]);
    const t1 = res.body.typologies[1];
    expect(t1).toMatchObject({ id: id.t1, buildingId: id.building, basePrice: "900000.00", totalArea: "98.50", availableUnits: 1, totalUnits: 3 });
  });

  it("needs buildingId, and shows nothing of another tenant's building", async () => {
    const res = await get(typologiesRoute, { siteId: site.id });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("buildingId parameter is required");
    expect((await get(typologiesRoute, { siteId: siteB.id }, { buildingId: id.building })).body).toEqual({ typologies: [] });
  });

  it("answers one typology, with units and unitStats when asked", async () => {
    const plain = await get(typologyRoute, { siteId: site.id, typologyId: id.t1 });
    expect(plain.status).toBe(200);
    expect(plain.body.typology).not.toHaveProperty("units");
    const full = await get(typologyRoute, { siteId: site.id, typologyId: id.t1 }, { includeUnits: "true" });
    expect(full.body.typology.units.map((u: any) => u.unitNumber)).toEqual(["2", "3", "10"]);
    expect(full.body.typology.unitStats).toEqual({ available: 1, reserved: 1, sold: 1, unavailable: 0, total: 3 });
    expect((await get(typologyRoute, { siteId: site.id, typologyId: id.t1 }, { includeUnits: "yes" })).status).toBe(400);
  });

  it("answers 404 Typology not found for hidden, inactive, unknown and other tenants' typologies", async () => {
    for (const [s, t] of [
      [site.id, id.hidden],
      [site.id, id.inactive],
      [site.id, "nope"],
      [siteB.id, id.t1],
    ]) {
      const res = await get(typologyRoute, { siteId: s, typologyId: t });
      expect(res.status, t).toBe(404);
      expect(res.body.error.message).toBe("Typology not found");
      expect((await get(unitsRoute, { siteId: s, typologyId: t })).status).toBe(404);
    }
  });
});

describe("units, typology listings and buildings", () => {
  it("lists shown units by number without reservation data", async () => {
    const res = await get(unitsRoute, { siteId: site.id, typologyId: id.t1 });
    expect(res.body.units.map((u: any) => u.unitNumber)).toEqual(["2", "3", "10"]);
    expect(Object.keys(res.body.units[0]).sort()).toEqual(["blockTower", "floor", "id", "price", "propertyId", "status", "typologyId", "unitNumber"]);
    expect(JSON.stringify(res.body)).not.toContain("ZZBUYERZZ");
  });

  it("lists the typology's public listings in the active stage, isPrimaryMarket as text", async () => {
    const res = await get(typologyListingsRoute, { siteId: site.id, typologyId: id.t1 });
    expect(res.body.listings).toEqual([
      {
        id: id.listing,
        title: "Aurora 3 dorms",
        description: "",
        type: "sale",
        price: "910000.00",
        listingCode: expect.any(String),
        typologyId: id.t1,
        isPrimaryMarket: "true",
        visibility: "public",
        stage: "active",
      },
    ]);
  });

  it("answers the building record without its street address, 404 for another tenant", async () => {
    const res = await get(buildingRoute, { siteId: site.id, buildingId: id.building });
    expect(res.body.building).toMatchObject({ id: id.building, name: "Residencial Aurora", developer: "Construtora X", portfolio: [], amenities: {} });
    expect(JSON.stringify(res.body)).not.toMatch(/1234|Rua Secreta/);
    const other = await get(buildingRoute, { siteId: siteB.id, buildingId: id.building });
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe("Building not found");
    expect((await get(buildingRoute, { siteId: site.id, buildingId: id.building }, { x: "1" })).status).toBe(400);
  });
});
