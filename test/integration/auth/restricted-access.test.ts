import { beforeAll, describe, expect, it } from "vitest";
import * as listingsRoute from "../../../app/api/v1/real-estate/listings/route";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as propertyRoute from "../../../app/api/v1/real-estate/properties/[propertyId]/route";
import { makeMember, makeTenant, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

/** A restricted key sees what a broker sees (docs/decisions.md). */
let t: TestTenant;
let broker: { userId: string; key: string };
let restrictedAdmin: { userId: string; key: string };
let othersPublic: any;
let othersPrivate: any;
let mine: any;

beforeAll(async () => {
  t = await makeTenant();
  broker = await makeMember(t, "broker", "broad");
  restrictedAdmin = await makeMember(t, "admin", "restricted");
  const other = await makeMember(t, "broker");
  const mk = async (key: string, visibility: string, over: Record<string, unknown> = {}) =>
    (await call(propertiesRoute.POST, "POST", "/x", { key, body: propertyBody(over, [saleListing({ visibility })]) })).body;
  othersPublic = await mk(t.key, "public", { assignedToId: other.userId });
  othersPrivate = await mk(t.key, "private", { assignedToId: other.userId });
  mine = await mk(broker.key, "private");
});

describe("restricted access", () => {
  it("a broker's property is assigned to the broker by default", () => {
    expect(mine.property.assignedToId).toBe(broker.userId);
  });

  it("lists public listings and its own private ones, not other brokers' private ones", async () => {
    for (const key of [broker.key, restrictedAdmin.key]) {
      const res = await call(listingsRoute.GET, "GET", "/x", { key });
      const ids = res.body.items.map((l: any) => l.id);
      expect(ids).toContain(othersPublic.listings[0].id);
      expect(ids).not.toContain(othersPrivate.listings[0].id);
      expect(res.body.total).toBe(res.body.items.length);
    }
    const own = await call(listingsRoute.GET, "GET", "/x", { key: broker.key, query: { visibility: "private" } });
    expect(own.body.items.map((l: any) => l.id)).toEqual([mine.listings[0].id]);
    const owner = await call(listingsRoute.GET, "GET", "/x", { key: t.key });
    expect(owner.body.items.map((l: any) => l.id)).toContain(othersPrivate.listings[0].id);
  });

  it("reads another broker's private listing as not found and cannot change public ones", async () => {
    const priv = { id: othersPrivate.listings[0].id };
    expect((await call(listingRoute.GET, "GET", "/x", { key: broker.key, params: priv })).status).toBe(404);
    expect((await call(listingRoute.PATCH, "PATCH", "/x", { key: broker.key, params: priv, body: { price: "1.00" } })).status).toBe(404);
    const pub = { id: othersPublic.listings[0].id };
    expect((await call(listingRoute.GET, "GET", "/x", { key: broker.key, params: pub })).status).toBe(200);
    expect((await call(listingRoute.PATCH, "PATCH", "/x", { key: broker.key, params: pub, body: { price: "1.00" } })).status).toBe(403);
    expect((await call(listingRoute.DELETE, "DELETE", "/x", { key: broker.key, params: pub })).status).toBe(403);
  });

  it("cannot read another broker's property (owner contact inside) nor hand its own to someone else", async () => {
    expect((await call(propertyRoute.GET, "GET", "/x", { key: broker.key, params: { propertyId: othersPublic.property.id } })).status).toBe(404);
    expect(
      (
        await call(propertyRoute.PATCH, "PATCH", "/x", {
          key: broker.key,
          params: { propertyId: othersPublic.property.id },
          body: { property: { bedrooms: 1 } },
        })
      ).status,
    ).toBe(404);
    const give = await call(propertyRoute.PATCH, "PATCH", "/x", {
      key: broker.key,
      params: { propertyId: mine.property.id },
      body: { property: { assignedToId: t.ownerId } },
    });
    expect(give.status).toBe(403);
    const edit = await call(propertyRoute.PATCH, "PATCH", "/x", {
      key: broker.key,
      params: { propertyId: mine.property.id },
      body: { property: { bedrooms: 2 } },
    });
    expect(edit.status).toBe(200);
  });
});
