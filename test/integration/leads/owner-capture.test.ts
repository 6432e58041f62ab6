/**
 * Owner capture (`destination: listing`): a draft property and private listing with the owner's
 * contact and geocoded coordinates (a Nominatim-compatible server on 127.0.0.1), the same address
 * linking to the existing property, and the geocoder failing without failing the lead.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as webhookRoute from "../../../app/api/webhooks/channels/[pathToken]/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import { getDb } from "../../../db/client";
import { deals, listings, properties } from "../../../db/schema";
import { startFakeGeocoder, type FakeGeocoder } from "../../fakes/geocoder";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";

let t: TestTenant;
let channel: { id: string; pathToken: string };
let geocoder: FakeGeocoder;
const queries: string[] = [];
let geocoderDown = false;

const post = (body: unknown, headers: Record<string, string> = {}) =>
  send(
    webhookRoute.POST,
    new Request(`http://localhost/x?sync=true`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }),
    { pathToken: channel.pathToken },
  ).then(async (r) => ({ status: r.status, body: await r.json() }));

const owner = (over: Record<string, unknown> = {}) => ({
  destination: "listing",
  leadType: "seller_lead",
  name: "Seu Jorge",
  phone: "11 93333-2222",
  cpf: "529.982.247-25",
  message: "Quero vender",
  businessType: "sale",
  propertyType: "apartment",
  bedrooms: 3,
  totalArea: 98,
  price: 950000,
  address: { street: "Rua Harmonia", number: "123", neighborhood: "Vila Madalena", city: "São Paulo", state: "SP", postalCode: "05435-000" },
  ...over,
});

beforeAll(async () => {
  geocoder = await startFakeGeocoder((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    queries.push(url.searchParams.get("q") ?? "");
    if (geocoderDown) return res.writeHead(503).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(url.pathname === "/search" ? [{ lat: "-23.5558", lon: "-46.6913" }] : []));
  });
  t = await makeTenant();
  const res = await call(channelsRoute.POST, "POST", "/x", {
    key: t.key,
    body: { name: "Captação", kind: "website", destinations: { deal: true, listing: true } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  channel = res.body;
});

afterAll(() => geocoder.close());

describe("owner capture", () => {
  it("creates a draft property and private listing with the owner, geocoded, and no deal", async () => {
    const res = await post(owner());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "created", dealId: null, listingId: expect.any(String) });
    const db = await getDb();
    const [l] = await db.select().from(listings).where(eq(listings.id, res.body.listingId));
    expect(l).toMatchObject({ visibility: "private", stage: "draft", type: "sale", price: "950000.00", createdById: null });
    const [p] = await db.select().from(properties).where(eq(properties.id, l.propertyId));
    expect(p).toMatchObject({
      type: "apartment",
      bedrooms: 3,
      ownerName: "Seu Jorge",
      ownerPhone: "+5511933332222",
      street: "Rua Harmonia",
      number: "123",
      latitude: -23.5558,
      longitude: -46.6913,
    });
    expect(queries.at(-1)).toContain("Rua Harmonia, 123");
    expect(await db.select().from(deals).where(eq(deals.tenantId, t.tenantId))).toHaveLength(0);
  });

  it("links a lead for the same street, number and postal code to the existing property", async () => {
    const db = await getDb();
    const before = (await db.select().from(properties).where(eq(properties.tenantId, t.tenantId))).length;
    const res = await post(owner({ name: "Outro", address: { street: "R. HARMONIA ", number: "123", postalCode: "05435000", city: "São Paulo" } }));
    // "R." is not "Rua": only the same normalised street counts as the same property.
    expect((await db.select().from(properties).where(eq(properties.tenantId, t.tenantId))).length).toBe(before + 1);
    const same = await post(owner({ name: "Terceiro", address: { street: "rua harmonia", number: " 123 ", postalCode: "05435000", city: "São Paulo" } }));
    expect(same.status).toBe(200);
    expect((await db.select().from(properties).where(eq(properties.tenantId, t.tenantId))).length).toBe(before + 1);
    expect(res.body.listingId).not.toBe(same.body.listingId);
  });

  it("keeps the lead when the geocoder fails, without coordinates", async () => {
    geocoderDown = true;
    try {
      const res = await post(owner({ address: { street: "Rua Aspicuelta", number: "9", city: "São Paulo", state: "SP", postalCode: "05433-010" } }));
      expect(res.status).toBe(200);
      const db = await getDb();
      const [l] = await db.select().from(listings).where(eq(listings.id, res.body.listingId));
      const [p] = await db.select().from(properties).where(eq(properties.id, l.propertyId));
      expect(p.latitude).toBeNull();
    } finally {
      geocoderDown = false;
    }
  });

  it("answers 403 for the listing destination on a channel that has not enabled it", async () => {
    const res = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Só negócios" } });
    const r = await send(
      webhookRoute.POST,
      new Request("http://localhost/x", {
        method: "POST",
        headers: { "content-type": "application/json", "x-inbound-destination": "listing" },
        body: JSON.stringify(owner()),
      }),
      { pathToken: res.body.pathToken },
    );
    expect(r.status).toBe(403);
  });
});
