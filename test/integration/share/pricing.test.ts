/**
 * The pricing tool's public helpers under its token: the estimate (comparables, range, confidence,
 * anonymised explanation), neighbourhood autocomplete, and the lead that becomes a deal (and a
 * draft listing); each checked like a share link, with two tenants that never see each other.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as estimateRoute from "../../../app/api/sites/share/[token]/price-estimate/route";
import * as hoodsRoute from "../../../app/api/sites/share/[token]/neighborhoods/route";
import * as leadRoute from "../../../app/api/sites/share/[token]/pricing-lead/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import * as networksRoute from "../../../app/api/v1/settings/networks/route";
import * as joinRoute from "../../../app/api/v1/settings/networks/join/route";
import * as networkListingsRoute from "../../../app/api/v1/settings/networks/[id]/listings/route";
import * as pricingToolRoute from "../../../app/api/v1/settings/pricing-tool/route";
import * as rotateRoute from "../../../app/api/v1/settings/pricing-tool/rotate/route";
import * as shareLinkRoute from "../../../app/api/v1/share-links/[id]/route";
import { getDb } from "../../../db/client";
import { dealContacts, deals, inboundLeads, listings, marketingChannelInstances, properties, shareLinks } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { processLead } from "../../../lib/leads/inbound/process-lead";
import { newShareToken } from "../../../lib/share/secrets";
import { startFakeGeocoder, type FakeGeocoder } from "../../fakes/geocoder";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing, makeShareLink } from "../../helpers/share";

let ip = 0;
const client = () => ({ [CLIENT_ADDRESS_HEADER]: `10.77.${Math.floor(++ip / 250)}.${ip % 250}` });
const estimate = (token: string, body: unknown, headers = client()) => call(estimateRoute.POST, "POST", "/x", { params: { token }, body, headers });
const hoods = (token: string, query: Record<string, string>, headers = client()) => call(hoodsRoute.GET, "GET", "/x", { params: { token }, query, headers });
const lead = (token: string, body: unknown, headers = client()) => call(leadRoute.POST, "POST", "/x", { params: { token }, body, headers });
const pricingToken = async (t: TestTenant) => (await call(pricingToolRoute.GET, "GET", "/x", { key: t.key })).body.token as string;

// Pinheiros (-23.5662, -46.6912) and Vila Madalena (-23.5538, -46.6903): 1.4 km apart.
const PIN = { neighborhood: "Pinheiros", street: "Rua dos Pinheiros", postalCode: "05422-000" };
const VM = { neighborhood: "Vila Madalena", street: "Rua Harmonia", postalCode: "05435-000" };
const at = (p: typeof PIN, i: number) => ({
  ...p,
  latitude: (p === PIN ? -23.5662 : -23.5538) + i * 0.0004,
  longitude: (p === PIN ? -46.6912 : -46.6903) - i * 0.0003,
});
const flat = (area: number, ppsqm: number, bedrooms = 2) =>
  [{ price: (area * ppsqm).toFixed(2) }, { totalArea: area.toFixed(2), bedrooms, bathrooms: 2, parkingSpaces: 1 }] as const;

const profile = (over: Record<string, unknown> = {}) => ({
  city: "sao-paulo-sp",
  neighborhood: "pinheiros",
  propertyType: "apartment",
  bedrooms: 2,
  bathrooms: 2,
  parkingSpaces: 1,
  totalArea: 80,
  ...over,
});

let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;
let geocoder: FakeGeocoder;

beforeAll(async () => {
  geocoder = await startFakeGeocoder((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([{ lat: "-23.5660", lon: "-46.6900" }])),
  );

  a = await makeTenant();
  b = await makeTenant();
  // Tenant A: eight Pinheiros flats around 15,000/m², three in Vila Madalena around 13,000/m².
  const pin = [
    [70, 15000],
    [75, 15400],
    [80, 14800],
    [82, 15200],
    [85, 14600],
    [90, 15600],
    [78, 15000],
    [95, 14900],
  ] as const;
  for (const [i, [area, pp]] of pin.entries()) {
    const [l, p] = flat(area, pp);
    await makeListing(a, l, p, at(PIN, i));
  }
  for (const [i, [area, pp]] of (
    [
      [80, 13000],
      [85, 13200],
      [75, 12800],
    ] as const
  ).entries()) {
    const [l, p] = flat(area, pp);
    await makeListing(a, l, p, at(VM, i));
  }
  // Never comparables: private listing, hidden price, draft, rental, and a house (another type family).
  const [l, p] = flat(80, 90000);
  await makeListing(a, { ...l, visibility: "private" }, p, at(PIN, 9));
  await makeListing(a, { ...l, priceVisibility: "private" }, p, at(PIN, 10));
  await makeListing(a, { ...l, stage: "draft" }, p, at(PIN, 11));
  await makeListing(a, { ...l, type: "rental", price: "9000.00" }, p, at(PIN, 12));
  await makeListing(a, l, { ...p, type: "house" }, at(PIN, 13));
  // Tenant B: the same neighbourhood at 40,000/m².
  for (const [i, area] of [70, 80, 90, 100].entries()) {
    const [bl, bp] = flat(area, 40000);
    await makeListing(b, bl, bp, at(PIN, i));
  }
  tokenA = await pricingToken(a);
  tokenB = await pricingToken(b);
});

afterAll(() => geocoder.close());

describe("price estimate", () => {
  it("values from the nearest comparables: point, range, confidence and an anonymised explanation", async () => {
    const res = await estimate(tokenA, profile());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const e = res.body;
    expect(Object.keys(e).sort()).toEqual(["confidence", "currency", "estimate", "explanation", "pricePerSqm"]);
    expect(e.currency).toBe("BRL");
    // The eight Pinheiros flats come first; the median price per m² is about 15,000.
    expect(e.pricePerSqm).toBeGreaterThan(14_700);
    expect(e.pricePerSqm).toBeLessThan(15_300);
    expect(e.estimate.value).toBeGreaterThan(80 * 14_700);
    expect(e.estimate.value).toBeLessThan(80 * 15_300);
    expect(e.estimate.low).toBeLessThan(e.estimate.value);
    expect(e.estimate.high).toBeGreaterThan(e.estimate.value);
    // Only the 11 eligible flats: private, hidden-price, draft, rental and house listings never count.
    expect(e.confidence.comparables).toBe(11);
    expect(e.confidence.score).toBeGreaterThan(0.85);
    expect(e.confidence.level).toBe("high");
    expect(e.explanation.neighborhood).toBe("Pinheiros");
    expect(e.explanation.method).toMatch(/Median price per m² of the 11 most similar listings/);
    const comps = e.explanation.comparables;
    expect(comps).toHaveLength(11);
    expect(comps.slice(0, 8).every((c: any) => c.neighborhood === "Pinheiros" && c.distanceBand === "under_1km")).toBe(true);
    expect(comps.slice(8).map((c: any) => c.neighborhood)).toEqual(["Vila Madalena", "Vila Madalena", "Vila Madalena"]);
    expect(comps.filter((c: any) => c.neighborhood === "Vila Madalena").every((c: any) => c.distanceBand === "1_to_3km")).toBe(true);
    for (const c of comps) {
      expect(Object.keys(c).sort()).toEqual(["bedrooms", "distanceBand", "neighborhood", "pricePerSqm", "totalArea"]);
      expect(c.totalArea % 5).toBe(0);
      expect(c.pricePerSqm % 100).toBe(0);
      expect(c.pricePerSqm).toBeLessThan(20_000); // the 90,000/m² listings that must not count
    }
    const text = JSON.stringify(e);
    for (const leak of ["Rua ", "05422", "listingCode", '"id"', "-23.5", "-46.6", "owner"]) expect(text).not.toContain(leak);
  });

  it("is accent- and case-insensitive on the neighbourhood, and answers null with too few comparables", async () => {
    const accented = await estimate(tokenA, profile({ neighborhood: "PINHÉIROS" }));
    expect(accented.body.explanation.neighborhood).toBe("Pinheiros");
    const unknownHood = await estimate(tokenA, profile({ neighborhood: "Bairro Inexistente" }));
    expect(unknownHood.status).toBe(200);
    expect(unknownHood.body.explanation.neighborhood).toBeNull();
    expect(unknownHood.body.estimate).not.toBeNull(); // the city's comparables still value it
    const house = await estimate(tokenA, profile({ propertyType: "house", totalArea: 200 }));
    expect(house.status).toBe(200);
    expect(house.body).toMatchObject({ estimate: null, pricePerSqm: null, confidence: { score: 0, level: "low", comparables: 0 } });
    expect(house.body.explanation.comparables).toEqual([]);
    expect(house.body.explanation.method).toMatch(/Not enough comparable listings/);
  });

  it("refuses bad profiles with a 400 naming the field", async () => {
    const cases: [unknown, RegExp][] = [
      [profile({ totalArea: 0 }), /totalArea/],
      [profile({ totalArea: "80" }), /totalArea/],
      [profile({ bedrooms: 2.5 }), /bedrooms/],
      [profile({ city: "atlantida" }), /city: 'atlantida' is not one of this pricing tool's cities/],
      [profile({ propertyType: "castle" }), /propertyType: 'castle' is not one of this tenant's property types/],
      [profile({ extra: 1 }), /extra/],
      [{ ...profile(), neighborhood: undefined }, /neighborhood/],
    ];
    for (const [body, message] of cases) {
      const res = await estimate(tokenA, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.error), JSON.stringify(body)).toMatch(message);
    }
  });

  it("each tenant's token values from its own listings only", async () => {
    const ea = (await estimate(tokenA, profile())).body;
    const eb = (await estimate(tokenB, profile())).body;
    expect(eb.confidence.comparables).toBe(4);
    expect(eb.pricePerSqm).toBeGreaterThan(39_000);
    expect(ea.pricePerSqm).toBeLessThan(16_000);
  });
});

describe("partner networks", () => {
  it("shared listings on air count only when sharingConfig.pricingTool.includeNetworkListings is on", async () => {
    const x = await makeTenant();
    const y = await makeTenant();
    const own = [];
    for (const [i, area] of [70, 80, 90].entries()) {
      const [l, p] = flat(area, 15000);
      own.push(await makeListing(x, l, p, at(PIN, i)));
    }
    const shared = [];
    for (const [i, area] of [75, 85].entries()) {
      const [l, p] = flat(area, 15000);
      shared.push(await makeListing(y, l, p, at(PIN, i)));
    }
    const [dl, dp] = flat(80, 15000);
    const draft = await makeListing(y, { ...dl, stage: "draft" }, dp, at(PIN, 5));
    const net = await call(networksRoute.POST, "POST", "/x", { key: x.key, body: { name: "Rede" } });
    expect((await call(joinRoute.POST, "POST", "/x", { key: y.key, body: { inviteCode: net.body.inviteCode } })).status).toBe(200);
    const share = await call(networkListingsRoute.PUT, "PUT", "/x", {
      key: y.key,
      params: { id: net.body.id },
      body: { listingIds: [...shared.map((l) => l.id), draft.id], shared: true },
    });
    expect(share.status, JSON.stringify(share.body)).toBe(200);
    const token = await pricingToken(x);
    expect((await estimate(token, profile())).body.confidence.comparables).toBe(3);
    const on = await call(settingsRoute.PATCH, "PATCH", "/x", { key: x.key, body: { sharingConfig: { pricingTool: { includeNetworkListings: true } } } });
    expect(on.status).toBe(200);
    expect((await estimate(token, profile())).body.confidence.comparables).toBe(5); // the draft stays out
    // Y's own tool does not see X's listings (it does not include networks): its two are too few.
    const ye = (await estimate(await pricingToken(y), profile())).body;
    expect(ye).toMatchObject({ estimate: null, confidence: { comparables: 0 } });
    expect(ye.explanation.method).toMatch(/\(2 found/);
  });
});

describe("neighbourhood autocomplete", () => {
  const names = async (q: string, token = tokenA) => {
    const res = await hoods(token, { city: "sao-paulo-sp", q });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.neighborhoods.map((n: { name: string }) => n.name);
  };

  it("matches prefixes, word prefixes, accents, case and typos, with canonical names", async () => {
    expect(await names("pinh")).toEqual(["Pinheiros"]);
    expect(await names("PINHÉ")).toEqual(["Pinheiros"]);
    expect(await names("vila")).toEqual(["Vila Madalena"]);
    expect(await names("madal")).toEqual(["Vila Madalena"]);
    expect(await names("pinheros")).toEqual(["Pinheiros"]);
    expect(await names("madalenna")).toEqual(["Vila Madalena"]);
    expect(await names("")).toEqual(["Pinheiros", "Vila Madalena"]);
    expect(await names("xyzw")).toEqual([]);
    const res = await hoods(tokenA, { city: "sao-paulo-sp", q: "pin" });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("needs a known city and takes no unknown parameter", async () => {
    const missing = await hoods(tokenA, { q: "pin" });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toMatch(/city/);
    const unknown = await hoods(tokenA, { city: "rio-de-janeiro-rj", q: "pin" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe("unknown_city");
    expect((await hoods(tokenA, { city: "sao-paulo-sp", q: "pin", limit: "3" })).status).toBe(400);
  });

  it("lists only the token's tenant's neighbourhoods", async () => {
    expect(await names("vila", tokenB)).toEqual([]);
    expect(await names("", tokenB)).toEqual(["Pinheiros"]);
  });
});

describe("the token is checked like any share link", () => {
  it("unknown, other kinds, rotated, inactive and expired tokens are refused by all three helpers", async () => {
    const t = await makeTenant();
    const l = await makeListing(t);
    const listingLink = await makeShareLink(t, { entityType: "listing", entityId: l.id });
    const first = await pricingToken(t);
    await call(rotateRoute.POST, "POST", "/x", { key: t.key });
    const other = await makeTenant();
    const expired = await pricingToken(other);
    const db = await getDb();
    await db
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shareLinks.token, expired));
    const body = { contact: { name: "X", email: "x@example.com" }, property: profile(), intent: "value", consent: true };
    for (const [token, status] of [
      [newShareToken(), 404],
      ["nope", 404],
      [listingLink.token, 404],
      [first, 404],
      [expired, 410],
    ] as const) {
      const e = await estimate(token, profile());
      expect(e.status, token).toBe(status);
      expect(e.body.error.code).toBe(status === 404 ? "not_found" : "expired");
      expect((await hoods(token, { city: "sao-paulo-sp", q: "p" })).status).toBe(status);
      expect((await lead(token, body)).status).toBe(status);
    }
    expect(await db.select().from(inboundLeads).where(eq(inboundLeads.tenantId, t.tenantId))).toHaveLength(0);
  });

  it("cannot be given a password (400 naming the field, link unchanged); null is accepted", async () => {
    const t = await makeTenant();
    const tool = (await call(pricingToolRoute.GET, "GET", "/x", { key: t.key })).body as { token: string; shareLinkId: string };
    const res = await call(shareLinkRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: tool.shareLinkId }, body: { password: "segredo123" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^password:/);
    const [row] = await (await getDb()).select().from(shareLinks).where(eq(shareLinks.id, tool.shareLinkId));
    expect(row.passwordHash).toBeNull();
    expect((await call(shareLinkRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: tool.shareLinkId }, body: { password: null } })).status).toBe(200);
  });

  it("answers the CORS preflight and a JSON 405 for other methods", async () => {
    const pre = await estimateRoute.OPTIONS();
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    const wrong = await call(estimateRoute.GET as any, "GET", "/x", { params: { token: tokenA } });
    expect(wrong.status).toBe(405);
  });

  it("is rate limited per client address (429 with Retry-After)", async () => {
    const same = client();
    let last = 0;
    for (let i = 0; i < 11; i++) last = (await lead(tokenA, { bad: true }, same)).status;
    expect(last).toBe(429);
    const res = await lead(tokenA, { bad: true }, same);
    expect(res.headers.get("retry-after")).toBeTruthy();
    expect(res.body.error.code).toBe("rate_limited");
  });
});

describe("pricing lead", () => {
  const leadBody = (over: Record<string, unknown> = {}, property: Record<string, unknown> = {}) => ({
    contact: { name: "Marina Souza", email: "marina@example.com", phone: "11 98765-4321" },
    property: { ...profile(), street: "Rua dos Pinheiros", number: "500", postalCode: "05422-000", ...property },
    estimate: { value: 1_200_000, low: 1_050_000, high: 1_370_000 },
    intent: "sell",
    consent: true,
    ...over,
  });
  const setCapture = async (t: TestTenant, sellerIntentCreates: string) => {
    const res = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { sharingConfig: { pricingTool: { sellerIntentCreates } } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** The lead stored for this tenant last, processed (again, harmlessly, if the job already did). */
  const processLast = async (t: TestTenant) => {
    const db = await getDb();
    const rows = await db.select().from(inboundLeads).where(eq(inboundLeads.tenantId, t.tenantId));
    const row = rows.sort((x, y) => x.receivedAt.getTime() - y.receivedAt.getTime()).at(-1)!;
    await processLead(db, row.id);
    const [done] = await db.select().from(inboundLeads).where(eq(inboundLeads.id, row.id));
    expect(done.status, done.error ?? "").toBe("processed");
    return done;
  };

  it("is stored before the 202 and becomes a sale deal with the owner as seller and the estimate in its notes", async () => {
    const res = await lead(tokenA, leadBody());
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ ok: true, accepted: true });
    const db = await getDb();
    const done = await processLast(a);
    const [channel] = await db.select().from(marketingChannelInstances).where(eq(marketingChannelInstances.id, done.channelId));
    expect(channel).toMatchObject({ tenantId: a.tenantId, kind: "pricing_tool" });
    expect(done.listingId).toBeNull(); // sellerIntentCreates defaults to `deal`
    const [deal] = await db.select().from(deals).where(eq(deals.id, done.dealIds[0]));
    expect(deal).toMatchObject({ tenantId: a.tenantId, dealType: "sale", marketingChannelInstanceId: channel.id, source: "pricing_tool" });
    expect(String(deal.customData.additionalNotes)).toMatch(/quer vender.*R\$ 1\.200\.000 \(faixa R\$ 1\.050\.000 a R\$ 1\.370\.000\).*Pinheiros, São Paulo/);
    const [role] = await db.select().from(dealContacts).where(eq(dealContacts.dealId, deal.id));
    expect(role.role).toBe("seller");
    // A second lead reuses the tenant's pricing channel.
    await lead(tokenA, leadBody({ intent: "value", contact: { name: "Outro", email: "outro@example.com" } }));
    const second = await processLast(a);
    expect(second.channelId).toBe(channel.id);
  });

  it("with deal_and_draft_listing, a seller with a full address also becomes a draft private listing linked to the deal", async () => {
    await setCapture(a, "deal_and_draft_listing");
    const db = await getDb();
    await lead(tokenA, leadBody());
    const done = await processLast(a);
    expect(done.listingId).not.toBeNull();
    const [l] = await db.select().from(listings).where(eq(listings.id, done.listingId!));
    expect(l).toMatchObject({ tenantId: a.tenantId, visibility: "private", stage: "draft", type: "sale" });
    const [p] = await db.select().from(properties).where(eq(properties.id, l.propertyId));
    expect(p).toMatchObject({
      type: "apartment",
      bedrooms: 2,
      totalArea: "80.00",
      street: "Rua dos Pinheiros",
      number: "500",
      neighborhood: "Pinheiros",
      city: "São Paulo",
      state: "SP",
      postalCode: "05422-000",
      ownerName: "Marina Souza",
      ownerPhone: "+5511987654321",
      latitude: -23.566,
      longitude: -46.69,
    });
    const [deal] = await db.select().from(deals).where(eq(deals.id, done.dealIds[0]));
    expect(deal.customData.leadListings).toEqual([{ listingId: l.id }]);

    // Only a deal: the owner only wanted the value, or the address is incomplete.
    for (const body of [leadBody({ intent: "value" }), leadBody({}, { postalCode: undefined })]) {
      expect((await lead(tokenA, body)).status).toBe(202);
      const d = await processLast(a);
      expect(d.dealIds).toHaveLength(1);
      expect(d.listingId).toBeNull();
    }
    await setCapture(a, "deal");
  });

  it("refuses invalid leads with a 400 and stores nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(inboundLeads).where(eq(inboundLeads.tenantId, b.tenantId))).length;
    const cases: [unknown, RegExp][] = [
      [leadBody({ consent: false }), /consent/],
      [leadBody({ consent: undefined }), /consent/],
      [leadBody({ intent: "buy" }), /intent/],
      [leadBody({ contact: { name: "Sem contato" } }), /email or a phone/],
      [leadBody({ contact: { name: "X", phone: "abc" } }), /phone/],
      [leadBody({ contact: { name: "X", email: "not-an-email" } }), /email/],
      [leadBody({ estimate: { value: 100, low: 200, high: 300 } }), /low ≤ value ≤ high/],
      [leadBody({}, { postalCode: "123" }), /postalCode/],
      [leadBody({}, { propertyType: "castle" }), /propertyType/],
      [leadBody({}, { city: "atlantida" }), /unknown|atlantida/],
    ];
    for (const [body, message] of cases) {
      const res = await lead(tokenB, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.error), JSON.stringify(body)).toMatch(message);
    }
    expect((await db.select().from(inboundLeads).where(eq(inboundLeads.tenantId, b.tenantId))).length).toBe(before);
  });

  it("a lead through a tenant's token lands in that tenant only", async () => {
    const db = await getDb();
    const aBefore = (await db.select().from(deals).where(eq(deals.tenantId, a.tenantId))).length;
    expect((await lead(tokenB, leadBody({ contact: { name: "Cliente B", email: "b@example.com" } }))).status).toBe(202);
    const done = await processLast(b);
    const [deal] = await db
      .select()
      .from(deals)
      .where(and(eq(deals.id, done.dealIds[0]), eq(deals.tenantId, b.tenantId)));
    expect(deal).toBeDefined();
    expect((await db.select().from(deals).where(eq(deals.tenantId, a.tenantId))).length).toBe(aBefore);
  });
});
