/**
 * The channel's listings feed: feed token, feedCriteria, public documents with their portal slot,
 * cursor paging without skips or repeats, VRSync XML, and slots set through the channel settings.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as feedRoute from "../../../app/api/webhooks/channels/[pathToken]/listings/route";
import * as channelRoute from "../../../app/api/v1/settings/marketing-channels/[id]/route";
import * as slotsRoute from "../../../app/api/v1/settings/marketing-channels/[id]/slots/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";

let t: TestTenant;
let other: TestTenant;
let channel: { id: string; pathToken: string; feedToken: string };
const ids: Record<string, string> = {};

async function home(owner: TestTenant, key: string, listing: Record<string, unknown>, city = "São Paulo") {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: owner.key,
    body: {
      property: { type: "apartment", bedrooms: 2, internalNotes: "ZZNOTEZZ", owner: { name: "ZZOWNERZZ" } },
      location: { city, state: "SP", neighborhood: "Centro", street: "Rua Um", number: "77777" },
      listings: [{ title: `Apartamento ${key}`, type: "sale", price: "500000", visibility: "public", stage: "active", ...listing }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  ids[key] = res.body.listings[0].id;
}

const feed = (query: Record<string, string> = {}, token = channel.feedToken) =>
  send(feedRoute.GET, new Request(`http://localhost/x?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${token}` } }), {
    pathToken: channel.pathToken,
  }).then(async (r) => ({ status: r.status, type: r.headers.get("content-type"), text: await r.text() }));

beforeAll(async () => {
  t = await makeTenant();
  other = await makeTenant();
  for (let i = 0; i < 5; i++) await home(t, `sp${i}`, {});
  await home(t, "rio", {}, "Rio de Janeiro");
  await home(t, "rent", { type: "rental", price: "3000" });
  await home(t, "private", { visibility: "private" });
  await home(t, "secret", { priceVisibility: "private", price: "1234567" });
  await home(other, "other", {});
  const res = await call(channelsRoute.POST, "POST", "/x", {
    key: t.key,
    body: { name: "ZAP", kind: "portal", feedCriteria: { type: "sale", city: "São Paulo" } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  channel = res.body;
});

describe("GET .../listings (feed)", () => {
  it("needs the feed token", async () => {
    expect((await feed({}, "feed_wrong")).status).toBe(401);
  });

  it("lists the public sale listings of São Paulo as public documents, cursor-paged without skips or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const res = await feed({ limit: "2", ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      const body = JSON.parse(res.text);
      seen.push(...body.items.map((i: any) => i.id));
      for (const item of body.items) expect(item.slot).toBe("standard");
      cursor = body.nextCursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen.sort()).toEqual([ids.sp0, ids.sp1, ids.sp2, ids.sp3, ids.sp4, ids.secret].sort());
    const all = await feed({ limit: "100" });
    expect(all.text).not.toMatch(/ZZNOTEZZ|ZZOWNERZZ|77777|1234567/);
    expect(JSON.parse(all.text).items.find((i: any) => i.id === ids.secret)).toMatchObject({ price: null, priceFormatted: "Consulte" });
    expect((await feed({ cursor: "not-a-cursor" })).status).toBe(400);
  });

  it("honours slots set in the channel settings, also in VRSync", async () => {
    const set = await call(slotsRoute.PUT, "PUT", "/x", {
      key: t.key,
      params: { id: channel.id },
      body: {
        slots: [
          { listingId: ids.sp0, slot: "super_featured" },
          { listingId: ids.sp1, slot: "featured" },
        ],
      },
    });
    expect(set.status).toBe(200);
    const items = JSON.parse((await feed({ limit: "100" })).text).items;
    expect(items.find((i: any) => i.id === ids.sp0).slot).toBe("super_featured");
    const xml = await feed({ format: "vrsync", limit: "100" });
    expect(xml.type).toMatch(/application\/xml/);
    expect(xml.text).toContain("<ListingDataFeed");
    expect(xml.text).toContain("<PublicationType>SUPER_PREMIUM</PublicationType>");
    expect(xml.text).toContain("<TransactionType>For Sale</TransactionType>");
    expect(xml.text.match(/<Listing>/g)).toHaveLength(6);
    expect(xml.text).not.toMatch(/ZZNOTEZZ|77777|1234567/);
    await call(slotsRoute.PUT, "PUT", "/x", { key: t.key, params: { id: channel.id }, body: { slots: [{ listingId: ids.sp0, slot: null }] } });
    expect(JSON.parse((await feed({ limit: "100" })).text).items.find((i: any) => i.id === ids.sp0).slot).toBe("standard");
  });

  it("refuses slots for another tenant's listing and bad feed criteria", async () => {
    const res = await call(slotsRoute.PUT, "PUT", "/x", {
      key: t.key,
      params: { id: channel.id },
      body: { slots: [{ listingId: ids.other, slot: "featured" }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(ids.other);
    const bad = await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: channel.id }, body: { feedCriteria: { bedrooms: "many" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("feedCriteria.bedrooms");
    const typo = await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: channel.id }, body: { feedCriteria: { colour: "red" } } });
    expect(typo.status).toBe(400);
  });
});
