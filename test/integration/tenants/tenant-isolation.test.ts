import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as listingsRoute from "../../../app/api/v1/real-estate/listings/route";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as propertyRoute from "../../../app/api/v1/real-estate/properties/[propertyId]/route";
import * as keyRoute from "../../../app/api/v1/settings/api-keys/[id]/route";
import * as keysRoute from "../../../app/api/v1/settings/api-keys/route";
import * as memberRoute from "../../../app/api/v1/settings/members/[id]/route";
import * as membersRoute from "../../../app/api/v1/settings/members/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { getDb } from "../../../db/client";
import { apiKeys, listings, members, properties } from "../../../db/schema";
import { makeTenant, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

/** Tenant B's key against every endpoint, with tenant A's ids: nothing is read or changed. */
let a: TestTenant;
let b: TestTenant;
let aProperty: any;
let aKeyId: string;

beforeAll(async () => {
  a = await makeTenant("Tenant A");
  b = await makeTenant("Tenant B");
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: a.key,
    body: propertyBody({ owner: { name: "Dono Secreto", phone: "11987654321" }, internalNotes: "segredo" }, [
      saleListing({ visibility: "public" }),
      saleListing({ visibility: "private", listingCode: "A-PRIV" }),
    ]),
  });
  aProperty = res.body;
  await call(propertiesRoute.POST, "POST", "/x", { key: b.key, body: propertyBody() });
  const keys = await call(keysRoute.GET, "GET", "/x", { key: a.key });
  aKeyId = keys.body.items[0].id;
});

describe("tenant isolation", () => {
  it("B lists only its own listings, whatever the filters", async () => {
    const queries: Record<string, string>[] = [{}, { visibility: "private" }, { visibility: "public" }, { propertyId: aProperty.property.id }];
    for (const query of queries) {
      const res = await call(listingsRoute.GET, "GET", "/x", { key: b.key, query });
      expect(res.status).toBe(200);
      const ids = res.body.items.map((l: any) => l.id);
      for (const l of aProperty.listings) expect(ids).not.toContain(l.id);
      expect(JSON.stringify(res.body)).not.toContain("A-PRIV");
    }
  });

  it("B cannot read, patch or delete A's listings", async () => {
    for (const l of aProperty.listings) {
      const p = { id: l.id };
      expect((await call(listingRoute.GET, "GET", "/x", { key: b.key, params: p })).status).toBe(404);
      expect((await call(listingRoute.PATCH, "PATCH", "/x", { key: b.key, params: p, body: { visibility: "private", price: "1.00" } })).status).toBe(404);
      expect((await call(listingRoute.DELETE, "DELETE", "/x", { key: b.key, params: p })).status).toBe(404);
    }
    const db = await getDb();
    const rows = await db.select().from(listings).where(eq(listings.tenantId, a.tenantId));
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.price === "1250000.00")).toBe(true);
  });

  it("B cannot read or patch A's property, nor address A's listings through its own property", async () => {
    const params = { propertyId: aProperty.property.id };
    expect((await call(propertyRoute.GET, "GET", "/x", { key: b.key, params })).status).toBe(404);
    const patch = await call(propertyRoute.PATCH, "PATCH", "/x", { key: b.key, params, body: { property: { bedrooms: 1 } } });
    expect(patch.status).toBe(404);
    const own = await call(propertiesRoute.POST, "POST", "/x", { key: b.key, body: propertyBody() });
    const hijack = await call(propertyRoute.PATCH, "PATCH", "/x", {
      key: b.key,
      params: { propertyId: own.body.property.id },
      body: { listings: [{ id: aProperty.listings[0].id, price: "1.00" }] },
    });
    expect(hijack.status).toBe(400);
    const db = await getDb();
    const [p] = await db.select().from(properties).where(eq(properties.id, aProperty.property.id));
    expect(p.bedrooms).toBe(3);
  });

  it("B cannot reference A's members in its own writes", async () => {
    const res = await call(propertiesRoute.POST, "POST", "/x", { key: b.key, body: propertyBody({ assignedToId: a.ownerId }) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/assignedToId/);
  });

  it("B's settings calls never show or change A's members, keys or settings", async () => {
    const ms = await call(membersRoute.GET, "GET", "/x", { key: b.key });
    expect(ms.body.items.map((m: any) => m.id)).not.toContain(a.ownerId);
    const ks = await call(keysRoute.GET, "GET", "/x", { key: b.key });
    expect(ks.body.items.map((k: any) => k.id)).not.toContain(aKeyId);
    expect((await call(memberRoute.PATCH, "PATCH", "/x", { key: b.key, params: { id: a.ownerId }, body: { active: false } })).status).toBe(404);
    expect((await call(keyRoute.DELETE, "DELETE", "/x", { key: b.key, params: { id: aKeyId } })).status).toBe(404);
    const s = await call(settingsRoute.GET, "GET", "/x", { key: b.key });
    expect(s.body.tenant.id).toBe(b.tenantId);
    const db = await getDb();
    const [owner] = await db.select().from(members).where(eq(members.id, a.ownerId));
    expect(owner.active).toBe(true);
    const [k] = await db.select().from(apiKeys).where(eq(apiKeys.id, aKeyId));
    expect(k.revokedAt).toBeNull();
  });
});
