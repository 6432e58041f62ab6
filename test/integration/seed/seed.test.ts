import fs from "node:fs";
import { DEMO_PHOTOGRAPHS } from "../../../db/seed/image-catalog";
import { and, count, countDistinct, eq, inArray, isNotNull, notInArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as listingsRoute from "../../../app/api/v1/real-estate/listings/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { getDb } from "../../../db/client";
import { apiKeys, buildings, deals, events, listings, media, members, properties, tenants, typologies, units } from "../../../db/schema";
import { demoFile } from "../../../db/seed/credentials";
import { loadDemoData, type DemoCredentials } from "../../../db/seed/demo";
import { hashApiKey } from "../../../lib/auth/api-key-secret";
import { call } from "../../helpers/http";
import { loadTenant } from "../../../lib/tenants/load-tenant";

let first: DemoCredentials;
const messages: string[] = [];

async function counts(tenantId: string) {
  const db = await getDb();
  const n = async (table: typeof listings | typeof properties | typeof members | typeof units | typeof events | typeof media) =>
    (await db.select({ n: count() }).from(table).where(eq(table.tenantId, tenantId)))[0].n;
  return {
    tenants: (await db.select({ n: count() }).from(tenants))[0].n,
    listings: await n(listings),
    properties: await n(properties),
    members: await n(members),
    units: await n(units),
    events: await n(events),
    media: await n(media),
  };
}

beforeAll(async () => {
  fs.rmSync(demoFile(), { force: true });
  first = await loadDemoData(await getDb(), { log: (m) => messages.push(m) });
}, 120_000);

describe("loadDemoData", () => {
  it("builds a funnel of about 60 deals over the stages and brokers", async () => {
    const db = await getDb();
    const rows = await db.select().from(deals).where(eq(deals.tenantId, first.tenantId));
    expect(rows.length).toBeGreaterThanOrEqual(50);
    expect(rows.length).toBeLessThanOrEqual(70);
    const stages = new Set(rows.map((d) => d.stage));
    for (const s of ["lead", "visita", "proposta", "ganho", "perdido"]) expect(stages).toContain(s);
    expect(rows.filter((d) => d.stage === "ganho").every((d) => d.status === "won")).toBe(true);
    const brokerIds = new Set(first.brokers.map((b) => b.id));
    const assigned = new Set(rows.map((d) => d.assignedToId).filter((id) => id && brokerIds.has(id)));
    expect(assigned.size).toBeGreaterThanOrEqual(4);
    expect(rows.some((d) => d.marketingChannelInstanceId)).toBe(true);
  });

  it("creates one agency with about 200 listings over São Paulo, Rio and Belo Horizonte", async () => {
    const db = await getDb();
    expect(first).toMatchObject({ slug: "demo", created: true });
    const c = await counts(first.tenantId);
    expect(c.tenants).toBe(1);
    expect(c.listings).toBeGreaterThanOrEqual(180);
    expect(c.listings).toBeLessThanOrEqual(240);
    // Created through the domain verbs, so each write left its outbox event.
    const created = await db
      .select({ name: events.eventName, n: count() })
      .from(events)
      .where(and(eq(events.tenantId, first.tenantId), inArray(events.eventName, ["property.created", "listing.created"])))
      .groupBy(events.eventName);
    expect(Object.fromEntries(created.map((e) => [e.name, e.n]))).toEqual({ "property.created": c.properties, "listing.created": c.listings });

    const cities = await db.selectDistinct({ city: properties.city }).from(properties).where(eq(properties.tenantId, first.tenantId));
    expect(cities.map((r) => r.city).sort()).toEqual(["Belo Horizonte", "Rio de Janeiro", "São Paulo"]);
    expect(messages.filter((m) => m.startsWith("Properties:")).length).toBeGreaterThanOrEqual(3);
  });

  it("mixes public and private listings, and links primary-market listings to typologies of the building", async () => {
    const db = await getDb();
    const t = first.tenantId;
    const [priv] = await db
      .select({ n: count() })
      .from(listings)
      .where(and(eq(listings.tenantId, t), eq(listings.visibility, "private")));
    expect(priv.n).toBeGreaterThan(10);
    const primary = await db
      .select({ typologyId: listings.typologyId, buildingId: properties.buildingId, typologyBuilding: typologies.buildingId })
      .from(listings)
      .innerJoin(properties, eq(properties.id, listings.propertyId))
      .innerJoin(typologies, eq(typologies.id, listings.typologyId))
      .where(and(eq(listings.tenantId, t), eq(listings.isPrimaryMarket, "true")));
    expect(primary.length).toBeGreaterThanOrEqual(3);
    for (const p of primary) expect(p.buildingId).toBe(p.typologyBuilding);
    const [b] = await db.select({ n: count() }).from(buildings).where(eq(buildings.tenantId, t));
    expect(b.n).toBe(1);
    expect((await counts(t)).units).toBeGreaterThanOrEqual(35);
    const unitStatuses = await db.selectDistinct({ s: units.status }).from(units).where(eq(units.tenantId, t));
    expect(unitStatuses.map((u) => u.s).sort()).toEqual(["available", "reserved", "sold"]);
  });

  it("spreads properties over at least five active brokers with photos and images", async () => {
    const db = await getDb();
    const t = first.tenantId;
    expect(first.brokers.length).toBeGreaterThanOrEqual(5);
    const brokers = await db
      .select()
      .from(members)
      .where(and(eq(members.tenantId, t), eq(members.role, "broker")));
    expect(brokers.length).toBeGreaterThanOrEqual(5);
    for (const b of brokers) expect(b.image).toMatch(/\/demo\/avatar-\d+\.svg$/);
    const [assigned] = await db
      .select({ n: countDistinct(properties.assignedToId) })
      .from(properties)
      .where(and(eq(properties.tenantId, t), isNotNull(properties.assignedToId)));
    expect(assigned.n).toBeGreaterThanOrEqual(5);
    const photos = await db.select({ url: media.url }).from(media).where(eq(media.tenantId, t));
    // The photographs are drawn at seed time (db/seed/generate-photos.ts), not shipped: every
    // listing photo is one of them, and the listings show most of the 400.
    const drawn = new Set(DEMO_PHOTOGRAPHS.map((p) => `/_media/demo/${p.file}`));
    for (const { url } of photos) {
      const file = new URL(url, "http://localhost").pathname;
      expect(drawn.has(file) || fs.existsSync(`public${file}`), `${file} is a demo photograph or exists in public/`).toBe(true);
    }
    expect(DEMO_PHOTOGRAPHS.length).toBeGreaterThanOrEqual(400);
    expect(new Set(photos.map((p) => p.url)).size).toBeGreaterThanOrEqual(300);
  });

  it("keeps every listing in one of the tenant's workflow stages, with an allowed status", async () => {
    const db = await getDb();
    const tenant = await loadTenant(db, first.tenantId);
    const stages = tenant.settings.listingWorkflow.stages;
    const [outside] = await db
      .select({ n: count() })
      .from(listings)
      .where(
        and(
          eq(listings.tenantId, tenant.id),
          notInArray(
            listings.stage,
            stages.map((s) => s.id),
          ),
        ),
      );
    expect(outside.n).toBe(0);
    const rows = await db.select({ stage: listings.stage, status: listings.status }).from(listings).where(eq(listings.tenantId, tenant.id));
    for (const r of rows) {
      const allowed = stages.find((s) => s.id === r.stage)!.statuses;
      if (r.status !== null) expect(allowed).toContain(r.status);
    }
    expect(new Set(rows.map((r) => r.stage))).toEqual(new Set(["draft", "active", "suspended", "closed"]));
  });

  it("writes working credentials to demo.json", async () => {
    const db = await getDb();
    const stored = JSON.parse(fs.readFileSync(demoFile(), "utf8"));
    expect(stored).toMatchObject({ tenantId: first.tenantId, apiKey: first.apiKey, ownerId: first.ownerId, slug: "demo" });
    expect(Date.parse(stored.createdAt)).not.toBeNaN();
    const [key] = await db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.hash, hashApiKey(first.apiKey)));
    expect(key).toMatchObject({ tenantId: first.tenantId, memberId: first.ownerId, scope: "broad", revokedAt: null });
  });

  it("answers the example request the seed CLI prints", async () => {
    const res = await call(listingsRoute.GET, "GET", "/api/v1/real-estate/listings", { key: first.apiKey, query: { pageSize: "5" } });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(5);
    expect(res.body.total).toBe((await counts(first.tenantId)).listings);
  });

  it("gives a broker's restricted key beside the owner's, which sees only what a broker sees", async () => {
    const db = await getDb();
    expect(first.brokers.map((b) => b.id)).toContain(first.broker.id);
    const [key] = await db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.hash, hashApiKey(first.broker.apiKey)));
    expect(key).toMatchObject({ tenantId: first.tenantId, memberId: first.broker.id, scope: "restricted", revokedAt: null });
    expect(JSON.parse(fs.readFileSync(demoFile(), "utf8")).broker).toEqual(first.broker);
    expect((await call(settingsRoute.GET, "GET", "/x", { key: first.broker.apiKey })).status).toBe(403);
    const mine = await call(dealsRoute.GET, "GET", "/x", { key: first.broker.apiKey, query: { pageSize: "100" } });
    const all = await call(dealsRoute.GET, "GET", "/x", { key: first.apiKey, query: { pageSize: "100" } });
    expect(mine.status).toBe(200);
    expect(mine.body.total).toBeGreaterThan(0);
    expect(mine.body.total).toBeLessThan(all.body.total);
    for (const d of mine.body.items) expect(d.assignedToId).toBe(first.broker.id);
  });

  it("creates nothing on a second run and returns the stored credentials", async () => {
    const db = await getDb();
    const before = await counts(first.tenantId);
    const again = await loadDemoData(db);
    expect(again).toEqual({ ...first, created: false });
    expect(await counts(first.tenantId)).toEqual(before);
  });

  it("issues a new owner key when demo.json is missing", async () => {
    const db = await getDb();
    fs.rmSync(demoFile());
    const before = await counts(first.tenantId);
    const again = await loadDemoData(db);
    expect(again).toMatchObject({ tenantId: first.tenantId, ownerId: first.ownerId, created: false, brokers: first.brokers });
    expect(again.apiKey).not.toBe(first.apiKey);
    expect(JSON.parse(fs.readFileSync(demoFile(), "utf8")).apiKey).toBe(again.apiKey);
    expect(await counts(first.tenantId)).toEqual(before);
  });
});
