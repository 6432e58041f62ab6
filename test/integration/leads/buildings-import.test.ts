/**
 * The channel buildings import (upsert by externalId, per-item results, bad items never block
 * the others, building.updated, development listings reindexed) and the buildings feed.
 */
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as feedRoute from "../../../app/api/webhooks/channels/[pathToken]/buildings/route";
import * as importRoute from "../../../app/api/webhooks/channels/[pathToken]/buildings/import/route";
import * as secretRoute from "../../../app/api/v1/settings/marketing-channels/[id]/secret/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { buildings, events, searchDocuments, typologies, units } from "../../../db/schema";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";

let t: TestTenant;
let channel: { id: string; pathToken: string; feedToken: string };

/** As the channel's system sends it: with its feed token unless `headers` says otherwise. */
const post = (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${channel.feedToken}` }) => {
  const raw = JSON.stringify(body);
  const req = new Request(`http://localhost/api/webhooks/channels/${channel.pathToken}/buildings/import`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: raw,
  });
  return send(importRoute.POST, req, { pathToken: channel.pathToken }).then(async (r) => ({ status: r.status, body: await r.json() }));
};
const feed = (auth?: string) =>
  send(feedRoute.GET, new Request("http://localhost/x", { headers: auth ? { authorization: auth } : {} }), { pathToken: channel.pathToken }).then(
    async (r) => ({ status: r.status, body: await r.json() }),
  );

const building = (over: Record<string, unknown> = {}) => ({
  externalId: "b-1",
  name: "Residencial Aurora",
  developer: "Construtora X",
  street: "Rua A",
  number: "100",
  neighborhood: "Pinheiros",
  city: "São Paulo",
  state: "SP",
  typologies: [
    {
      externalId: "t-1",
      name: "2 dormitórios",
      bedrooms: 2,
      totalArea: "65.00",
      basePrice: "550000.00",
      units: [
        { externalId: "u-1", unitNumber: "101", status: "available" },
        { externalId: "u-2", unitNumber: "102", status: "sold", price: null },
      ],
    },
  ],
  ...over,
});

beforeAll(async () => {
  t = await makeTenant();
  const res = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Incorporadora", kind: "developer" } });
  channel = res.body;
});

describe("POST .../buildings/import", () => {
  it("creates, then updates by externalId, with one result per building, typology and unit", async () => {
    const first = await post({ buildings: [building()] });
    expect(first.status).toBe(200);
    expect(first.body.results.map((r: any) => [r.kind, r.externalId, r.status])).toEqual([
      ["building", "b-1", "created"],
      ["typology", "t-1", "created"],
      ["unit", "u-1", "created"],
      ["unit", "u-2", "created"],
    ]);
    const again = await post({ buildings: [building({ name: "Residencial Aurora II" })] });
    expect(again.body.results.every((r: any) => r.status === "updated")).toBe(true);
    const db = await getDb();
    const rows = await db.select().from(buildings).where(eq(buildings.tenantId, t.tenantId));
    expect(rows).toHaveLength(1);
    expect(rows[0].name).toBe("Residencial Aurora II");
    expect(await db.select().from(units).where(eq(units.tenantId, t.tenantId))).toHaveLength(2);
    const evts = await db.select().from(events).where(eq(events.entityId, rows[0].id));
    expect(evts.filter((e) => e.eventName === "building.updated")).toHaveLength(2);
  });

  it("reports bad items with their path and message and writes the others", async () => {
    const res = await post({
      buildings: [
        { externalId: "b-bad", name: "" },
        building({
          externalId: "b-2",
          typologies: [
            { externalId: "t-bad", name: "X", totalArea: "sessenta" },
            {
              externalId: "t-2",
              name: "3 dormitórios",
              units: [
                { externalId: "u-bad", unitNumber: "1", status: "vendido" },
                { externalId: "u-3", unitNumber: "2" },
              ],
            },
          ],
        }),
        "not an object",
      ],
    });
    expect(res.status).toBe(200);
    const by = (p: string) => res.body.results.find((r: any) => r.path === p);
    expect(by("buildings.0")).toMatchObject({ status: "error", externalId: "b-bad", message: expect.stringContaining("name") });
    expect(by("buildings.1")).toMatchObject({ status: "created", externalId: "b-2" });
    expect(by("buildings.1.typologies.0")).toMatchObject({ status: "error", message: expect.stringContaining("totalArea") });
    expect(by("buildings.1.typologies.1")).toMatchObject({ status: "created" });
    expect(by("buildings.1.typologies.1.units.0")).toMatchObject({ status: "error", message: expect.stringContaining("status") });
    expect(by("buildings.1.typologies.1.units.1")).toMatchObject({ status: "created" });
    expect(by("buildings.2")).toMatchObject({ status: "error", externalId: null });
  });

  it("keeps development listings' search documents current with their typology", async () => {
    const db = await getDb();
    const [ty] = await db.select().from(typologies).where(eq(typologies.externalId, "t-1"));
    const prop = await call(propertiesRoute.POST, "POST", "/x", {
      key: t.key,
      body: {
        property: { type: "apartment" },
        listings: [{ title: "Aurora", type: "sale", isPrimaryMarket: "true", typologyId: ty.id, visibility: "public", stage: "active" }],
      },
    });
    expect(prop.status).toBe(201);
    await post({ buildings: [building({ typologies: [{ ...building().typologies[0], basePrice: "600000.00", units: [] }] })] });
    const [doc] = await db.select().from(searchDocuments).where(eq(searchDocuments.listing_id, prop.body.listings[0].id));
    expect(Number((doc as Record<string, unknown>).typology_base_price)).toBe(600000);
  });

  it("refuses more than 500 buildings and an empty list", async () => {
    expect((await post({ buildings: [] })).status).toBe(400);
    expect((await post({ buildings: Array.from({ length: 501 }, (_, i) => ({ externalId: `x${i}`, name: "x" })) })).status).toBe(400);
  });

  // Issue 32, D8: the lead URL alone (what every portal sending leads holds) rewrote developments.
  it("needs more than the lead URL: the feed token, or the channel's secret", async () => {
    const db = await getDb();
    const snapshot = async () =>
      JSON.stringify([
        await db.select().from(buildings).where(eq(buildings.tenantId, t.tenantId)),
        await db.select().from(units).where(eq(units.tenantId, t.tenantId)),
      ]);
    const before = await snapshot();
    const body = {
      buildings: [
        building({
          name: "Reescrito",
          typologies: [{ ...building().typologies[0], basePrice: "1.00", units: [{ externalId: "u-1", unitNumber: "101", status: "sold", price: "1.00" }] }],
        }),
      ],
    };
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: "Bearer feed_wrong" },
      { authorization: `Bearer ${channel.pathToken}` },
      { "x-hmac-sha256": "00" },
    ]) {
      const res = await post(body, headers);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      expect(res.body.error.message).toContain("Authorization: Bearer <feedToken>");
    }
    expect(await snapshot()).toBe(before);

    await call(secretRoute.POST, "POST", "/x", { key: t.key, params: { id: channel.id }, body: { secret: "import-secret-0123456789" } });
    const unsigned = await post(body, {});
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error.message).toMatch(/feed token.*X-Hmac-Sha256/);
    expect(await snapshot()).toBe(before);
    const sig = createHmac("sha256", "import-secret-0123456789").update(JSON.stringify(body)).digest("hex");
    expect((await post(body, { "x-hmac-sha256": `sha256=${sig}` })).status).toBe(200);
    expect((await post(body, { authorization: "Bearer import-secret-0123456789" })).status).toBe(200);
    expect((await post(body)).status).toBe(200);
    await call(secretRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: channel.id } });
    expect((await post(body, { "x-hmac-sha256": `sha256=${sig}` })).status).toBe(401);
    expect((await post({ buildings: [building()] })).status).toBe(200);
  });
});

describe("GET .../buildings (feed)", () => {
  it("needs the feed token and exposes no street address or reservation data", async () => {
    expect((await feed()).status).toBe(401);
    expect((await feed("Bearer feed_wrong")).status).toBe(401);
    const res = await feed(`Bearer ${channel.feedToken}`);
    expect(res.status).toBe(200);
    const aurora = res.body.buildings.find((b: any) => b.externalId === "b-1");
    expect(aurora).toMatchObject({ location: { neighborhood: "Pinheiros", city: "São Paulo", state: "SP" } });
    expect(aurora.typologies[0]).toMatchObject({ externalId: "t-1", availableUnits: 1 });
    expect(JSON.stringify(res.body)).not.toMatch(/Rua A|"100"/);
  });
});
