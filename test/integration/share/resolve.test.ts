import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as propertyRoute from "../../../app/api/sites/[siteId]/property/[id]/route";
import * as shareRoute from "../../../app/api/sites/share/[token]/route";
import * as itinerariesRoute from "../../../app/api/v1/crm/visit-itineraries/route";
import * as shortlistsRoute from "../../../app/api/v1/crm/shortlists/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import * as pricingToolRoute from "../../../app/api/v1/settings/pricing-tool/route";
import * as rotateRoute from "../../../app/api/v1/settings/pricing-tool/rotate/route";
import * as linkRoute from "../../../app/api/v1/share-links/[id]/route";
import * as viewsRoute from "../../../app/api/v1/share-links/[id]/views/route";
import { getDb } from "../../../db/client";
import { shareLinks } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { distanceMeters } from "../../../lib/share/route-plan";
import { settleAccesses } from "../../../lib/share/record-access";
import { openLink } from "../../../lib/share/resolve-share";
import { newCoordinateSeed, newShareToken } from "../../../lib/share/secrets";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing, makeShareLink } from "../../helpers/share";
import { makeSite } from "../../helpers/sites";

let ip = 0;
const client = () => ({ [CLIENT_ADDRESS_HEADER]: `10.13.${Math.floor(++ip / 250)}.${ip % 250}` });
const open = (token: string, extra: { headers?: Record<string, string> } = {}) =>
  call(shareRoute.GET, "GET", `/api/sites/share/${token}`, { params: { token }, headers: { ...client(), ...extra.headers } });
const openPost = (token: string, body?: unknown, headers: Record<string, string> = client()) =>
  call(shareRoute.POST, "POST", `/api/sites/share/${token}`, { params: { token }, body, headers });
const setSharing = async (t: TestTenant, sharingConfig: unknown) => {
  const res = await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { sharingConfig } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

const TRUE = { latitude: -23.5558, longitude: -46.6896 };

describe("resolve of the five kinds", () => {
  let t: TestTenant;
  let a: { id: string; code: string };
  let b: { id: string; code: string };
  beforeAll(async () => {
    t = await makeTenant();
    const broker = await makeMember(t, "broker", "broad", { phone: "+5511955554444" });
    a = await makeListing(t, {}, { assignedToId: broker.userId, media: [{ url: "https://img.example.com/a.jpg", isPrimary: true, alt: "Sala" }] });
    b = await makeListing(t, { price: "1500000.00" }, {}, { latitude: -23.56, longitude: -46.69 });
  });

  it("listing: listing, property, medias, agent, branding, tenantConfig, site and token", async () => {
    const site = await makeSite(t);
    const link = await makeShareLink(t, { entityType: "listing", entityId: a.id });
    const res = await open(link.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = res.body;
    expect(body.token).toEqual({ id: link.id, entityType: "listing", entityId: a.id, dealId: null, createdBy: t.ownerId });
    expect(body.tenantId).toBe(t.tenantId);
    expect(body.branding).toEqual({ name: expect.any(String), logo: null, primaryColor: "#1f6feb" });
    expect(Object.keys(body.tenantConfig).sort()).toEqual(["buildingFeatures", "primaryMarketEnabled", "propertyFeatures", "propertyTypes"]);
    expect(body.site).toEqual({ hasSite: true, domain: site.domain, siteId: site.id });
    expect(body.showFinancialSimulator).toBe(true);
    expect(body.entity.type).toBe("listing");
    expect(body.entity.listing).toMatchObject({ id: a.id, listingCode: a.code, price: 980000, location_neighborhood: "Vila Madalena" });
    expect(body.entity.property).toMatchObject({
      type: "apartment",
      bedrooms: 3,
      totalArea: 120,
      address: { neighborhood: "Vila Madalena", city: "São Paulo", state: "SP" },
    });
    expect(body.entity.medias).toEqual([
      { id: expect.any(String), src: "https://img.example.com/a.jpg", alt: "Sala", type: "photo", category: null, order: 0, isPrimary: true },
    ]);
    expect(body.entity.agent).toEqual({ id: expect.any(String), name: "Corretor broker", imageUrl: null, phone: "+5511955554444", creci: null });
  });

  it("shortlist: the shortlist, its listings in order and their count", async () => {
    const sl = await call(shortlistsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { name: "Família Souza", description: "Zona oeste", listingIds: [b.id, a.id] },
    });
    const link = await makeShareLink(t, { entityType: "shortlist", entityId: sl.body.id });
    const res = await open(link.token);
    expect(res.status).toBe(200);
    expect(res.body.entity).toMatchObject({
      type: "shortlist",
      shortlist: { id: sl.body.id, name: "Família Souza", description: "Zona oeste" },
      listingCount: 2,
    });
    expect(res.body.entity.listings.map((l: any) => l.id)).toEqual([b.id, a.id]);
  });

  it("seller report: the listing plus views, leads and days on market", async () => {
    const link = await makeShareLink(t, { entityType: "seller_report", entityId: a.id });
    await open(link.token);
    await settleAccesses();
    await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: {
        title: "Interessado",
        dealType: "sale",
        contacts: [{ name: "Ana", email: "ana@example.com", role: "buyer" }],
        custom: { leadListings: [{ listingId: a.id }] },
      },
    });
    const res = await open(link.token);
    expect(res.status).toBe(200);
    expect(res.body.entity.type).toBe("seller_report");
    expect(res.body.entity.listing.id).toBe(a.id);
    expect(res.body.entity.stats.leads).toBe(1);
    expect(res.body.entity.stats.views).toBeGreaterThanOrEqual(1);
    expect(res.body.entity.stats.daysOnMarket).toBe(0);
    // Site views count too: each detail answered by the tenant's site (not another listing's).
    await settleAccesses();
    const before = res.body.entity.stats.views;
    const site = await makeSite(t);
    for (let i = 0; i < 2; i++) {
      const d = await call(propertyRoute.GET, "GET", "/x", { params: { siteId: site.id, id: a.id }, headers: client() });
      expect(d.status).toBe(200);
    }
    expect((await call(propertyRoute.GET, "GET", "/x", { params: { siteId: site.id, id: b.id }, headers: client() })).status).toBe(200);
    await settleAccesses();
    const after = await open(link.token);
    expect(after.body.entity.stats.views).toBe(before + 1 + 2); // the open above, then two site views
  });

  it("visit itinerary: itinerary, stops with their listings, meeting point, route and stop count", async () => {
    const it = await call(itinerariesRoute.POST, "POST", "/x", {
      key: t.key,
      body: {
        name: "Sábado",
        scheduledDate: "2027-03-06",
        meetingPoint: { name: "Metrô", latitude: -23.5464, longitude: -46.6909 },
        stops: [
          { listingId: a.id, time: "10:00", notes: "Portaria" },
          { listingId: b.id, time: "11:00" },
        ],
      },
    });
    const link = await makeShareLink(t, { entityType: "visit_itinerary", entityId: it.body.id });
    const res = await open(link.token);
    expect(res.status).toBe(200);
    expect(res.body.entity).toMatchObject({
      type: "visit_itinerary",
      itinerary: { id: it.body.id, name: "Sábado", scheduledDate: "2027-03-06" },
      stopCount: 2,
      meetingPoint: { name: "Metrô" },
      routeCache: { order: [a.id, b.id] },
    });
    expect(res.body.entity.stops[0]).toMatchObject({ order: 1, listingId: a.id, time: "10:00", notes: "Portaria", listing: { id: a.id } });
  });

  it("pricing tool: one permanent token per tenant with its cities; rotation retires the old token", async () => {
    const first = await call(pricingToolRoute.GET, "GET", "/x", { key: t.key });
    expect(first.status).toBe(200);
    expect(first.body.url).toBe(`http://${t.slug}.share.localhost:3000/c/${first.body.token}`);
    expect(first.body.cities).toEqual([{ code: "sao-paulo-sp", label: "São Paulo", state: "SP" }]);
    expect((await call(pricingToolRoute.GET, "GET", "/x", { key: t.key })).body.token).toBe(first.body.token);
    const res = await open(first.body.token);
    expect(res.status).toBe(200);
    expect(res.body.entity).toEqual({ type: "pricing_tool", pricingTool: { cities: [{ code: "sao-paulo-sp", label: "São Paulo", state: "SP" }] } });
    expect(res.body.token).toMatchObject({ entityType: "pricing_tool", entityId: t.tenantId });
    const rotated = await call(rotateRoute.POST, "POST", "/x", { key: t.key });
    expect(rotated.body.token).not.toBe(first.body.token);
    expect((await open(first.body.token)).status).toBe(404);
    expect((await open(rotated.body.token)).status).toBe(200);
    const broker = await makeMember(t, "broker");
    expect((await call(pricingToolRoute.GET, "GET", "/x", { key: broker.key })).status).toBe(403);
  });
});

describe("field visibility (every row of spec 2 §2.8)", () => {
  let t: TestTenant;
  let l: { id: string; code: string };
  let link: any;
  beforeAll(async () => {
    t = await makeTenant();
    l = await makeListing(t);
    link = await makeShareLink(t, { entityType: "listing", entityId: l.id });
  });
  const entity = async () => {
    const res = await open(link.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.entity;
  };

  it("address: full, neighborhood_only, city_only, hidden", async () => {
    const cases = {
      full: [
        { street: "Rua Harmonia", number: "123", neighborhood: "Vila Madalena", city: "São Paulo", state: "SP", postalCode: "05435-000" },
        ["location_street", "location_neighborhood", "location_city", "location_state"],
      ],
      neighborhood_only: [{ neighborhood: "Vila Madalena", city: "São Paulo", state: "SP" }, ["location_neighborhood", "location_city", "location_state"]],
      city_only: [{ city: "São Paulo", state: "SP" }, ["location_city", "location_state"]],
      hidden: [undefined, []],
    } as const;
    for (const [address, [expected, docKeys]] of Object.entries(cases)) {
      await setSharing(t, { fieldVisibility: { address } });
      const e = await entity();
      expect(e.property.address, address).toEqual(expected);
      const present = Object.keys(e.listing).filter((k) => ["location_street", "location_neighborhood", "location_city", "location_state"].includes(k));
      expect(present.sort(), address).toEqual([...docKeys].sort());
      const text = JSON.stringify(e);
      if (address !== "full") expect(text).not.toContain("Rua Harmonia");
      if (address === "hidden" || address === "city_only") expect(text).not.toContain("Vila Madalena");
      if (address !== "full") expect(text).not.toContain("05435");
    }
  });

  it("coordinates: exact, approximate (150-500 m, stable per link, different across links), hidden", async () => {
    await setSharing(t, { fieldVisibility: { coordinates: "exact" } });
    let e = await entity();
    expect(e.property.coordinates).toEqual({ ...TRUE, approximate: false });
    expect([e.listing.location_latitude, e.listing.location_longitude]).toEqual([TRUE.latitude, TRUE.longitude]);

    await setSharing(t, { fieldVisibility: { coordinates: "approximate" } });
    e = await entity();
    const p1 = e.property.coordinates;
    expect(p1.approximate).toBe(true);
    const d = distanceMeters(TRUE, p1);
    expect(d).toBeGreaterThan(140);
    expect(d).toBeLessThan(510);
    expect([e.listing.location_latitude, e.listing.location_longitude]).toEqual([p1.latitude, p1.longitude]);
    for (let i = 0; i < 3; i++) expect((await entity()).property.coordinates).toEqual(p1);
    const points = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const other = await makeShareLink(t, { entityType: "listing", entityId: l.id });
      const c = (await open(other.token)).body.entity.property.coordinates;
      expect(distanceMeters(TRUE, c)).toBeLessThan(510);
      points.add(`${c.latitude},${c.longitude}`);
    }
    points.add(`${p1.latitude},${p1.longitude}`);
    // Each link has its own random seed, but points are rounded to four decimals (~11 m): two of six
    // links land in the same cell about once in 400 runs, so one coincidence is allowed, not two.
    expect(points.size).toBeGreaterThanOrEqual(5);

    await setSharing(t, { fieldVisibility: { coordinates: "hidden" } });
    e = await entity();
    expect(e.property.coordinates).toBeUndefined();
    expect("location_latitude" in e.listing || "location_longitude" in e.listing).toBe(false);
    expect(JSON.stringify(e)).not.toMatch(/-23\.55|-46\.68|-46\.69/);
  });

  it("financials, price (inherit / hidden), listing code, agent info and the simulator flag", async () => {
    await setSharing(t, { fieldVisibility: { financials: "visible" } });
    let e = await entity();
    expect(e.property).toMatchObject({ condoFee: 850, propertyTax: 210 });
    expect(e.listing).toMatchObject({ condoFee: 850, propertyTax: 210 });
    await setSharing(t, { fieldVisibility: { financials: "hidden" } });
    e = await entity();
    for (const k of ["condoFee", "propertyTax"]) expect(k in e.property || k in e.listing, k).toBe(false);

    await setSharing(t, { fieldVisibility: { price: "inherit" } });
    expect((await entity()).listing).toMatchObject({ price: 980000 });
    await setSharing(t, { fieldVisibility: { price: "hidden" } });
    e = await entity();
    expect(e.listing).toMatchObject({ price: null, priceFormatted: "Consulte" });
    expect(JSON.stringify(e)).not.toContain("980000");
    const privatePrice = await makeListing(t, { priceVisibility: "private" });
    await setSharing(t, { fieldVisibility: { price: "inherit" } });
    const pl = await makeShareLink(t, { entityType: "listing", entityId: privatePrice.id });
    expect((await open(pl.token)).body.entity.listing).toMatchObject({ price: null, priceFormatted: "Consulte" });

    await setSharing(t, { fieldVisibility: { listingCode: "hidden" } });
    e = await entity();
    expect("listingCode" in e.listing).toBe(false);
    expect(JSON.stringify(e)).not.toContain(l.code);
    await setSharing(t, { fieldVisibility: { listingCode: "visible" } });
    expect((await entity()).listing.listingCode).toBe(l.code);

    await setSharing(t, { showFinancialSimulator: false });
    expect((await open(link.token)).body.showFinancialSimulator).toBe(false);
  });

  it("restrictions: hideSharesForStages and autoHideTerminalStages answer 404; a private listing can be shared", async () => {
    const priv = await makeListing(t, { visibility: "private", stage: "suspended", status: "owner_request" });
    const closed = await makeListing(t, { stage: "closed", status: "sold" });
    const lp = await makeShareLink(t, { entityType: "listing", entityId: priv.id });
    const lc = await makeShareLink(t, { entityType: "seller_report", entityId: closed.id });
    await setSharing(t, {});
    expect((await open(lp.token)).status).toBe(200);
    const hidden = await open(lc.token);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toEqual({ code: "not_found", message: "Share link not found" });
    await setSharing(t, { restrictions: { autoHideTerminalStages: false } });
    expect((await open(lc.token)).status).toBe(200);
    await setSharing(t, { restrictions: { autoHideTerminalStages: false, hideSharesForStages: ["suspended"] } });
    expect((await open(lp.token)).status).toBe(404);
    // A shortlist drops hidden listings instead of failing.
    const sl = await call(shortlistsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Mix", listingIds: [priv.id, l.id] } });
    const sll = await makeShareLink(t, { entityType: "shortlist", entityId: sl.body.id });
    expect((await open(sll.token)).body.entity.listingCount).toBe(1);
  });
});

describe("errors, expiry, passwords, tenants and the access log", () => {
  it("unknown, malformed and inactive tokens are 404 not_found; expired is 410 expired, at the boundary", async () => {
    const t = await makeTenant();
    const l = await makeListing(t);
    for (const token of [newShareToken(), "short", "x".repeat(40)]) {
      const res = await open(token);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: "not_found", message: "Share link not found" });
    }
    const link = await makeShareLink(t, { entityType: "listing", entityId: l.id });
    await call(linkRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: link.id } });
    expect((await open(link.token)).status).toBe(404);

    const exp = await makeShareLink(t, { entityType: "listing", entityId: l.id, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await open(exp.token)).status).toBe(200);
    const at = new Date(exp.expiresAt);
    await expect(openLink(await getDb(), exp.token, new Date(at.getTime() - 1))).resolves.toMatchObject({ id: exp.id });
    await expect(openLink(await getDb(), exp.token, at)).rejects.toMatchObject({ kind: "gone", code: "expired" });
    await (await getDb())
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shareLinks.id, exp.id));
    const gone = await open(exp.token);
    expect(gone.status).toBe(410);
    expect(gone.body.error).toEqual({ code: "expired", message: "Share link has expired" });
    expect((await openPost(exp.token, {})).status).toBe(410);
  });

  it("a protected link: 401 on GET and on POST without a password, 403 when wrong, 200 when right; then throttled (429) whatever the address", async () => {
    const t = await makeTenant();
    const l = await makeListing(t);
    const link = await makeShareLink(t, { entityType: "listing", entityId: l.id, password: "casa-azul" });
    const get = await open(link.token);
    expect(get.status).toBe(401);
    expect(get.body.error).toEqual({ code: "password_required", message: "Password required" });
    expect((await openPost(link.token)).status).toBe(401);
    expect((await openPost(link.token, {})).status).toBe(401);
    expect((await openPost(link.token, { password: "" })).status).toBe(401);
    const wrong = await openPost(link.token, { password: "casa-verde" });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toEqual({ code: "password_invalid", message: "Invalid password" });
    expect((await openPost(link.token, { password: 123 })).status).toBe(400);
    const ok = await openPost(link.token, { password: "casa-azul" });
    expect(ok.status).toBe(200);
    expect(ok.body.entity.listing.id).toBe(l.id);
    for (let i = 0; i < 4; i++) expect((await openPost(link.token, { password: `errada-${i}` })).status).toBe(403);
    const limited = await openPost(link.token, { password: "casa-azul" });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    // Another link of the same listing is not affected.
    const other = await makeShareLink(t, { entityType: "listing", entityId: l.id, password: "casa-azul" });
    expect((await openPost(other.token, { password: "casa-azul" })).status).toBe(200);
  });

  it("guesses sent all at once get five password checks in all, not five each", async () => {
    const t = await makeTenant();
    const l = await makeListing(t);
    const link = await makeShareLink(t, { entityType: "listing", entityId: l.id, password: "casa-azul" });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => openPost(link.token, { password: `chute-${i}` })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 403)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    // The budget is spent: the right password waits too.
    expect((await openPost(link.token, { password: "casa-azul" })).status).toBe(429);
  });

  it("a right password gives its attempt back: five wrong ones still fit after many right ones", async () => {
    const t = await makeTenant();
    const l = await makeListing(t);
    const link = await makeShareLink(t, { entityType: "listing", entityId: l.id, password: "casa-azul" });
    for (let i = 0; i < 8; i++) expect((await openPost(link.token, { password: "casa-azul" })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await openPost(link.token, { password: `errada-${i}` })).status).toBe(403);
    expect((await openPost(link.token, { password: "casa-azul" })).status).toBe(429);
  });

  it("a token never opens another tenant's entity", async () => {
    const a = await makeTenant();
    const b = await makeTenant();
    const foreign = await makeListing(b);
    const token = newShareToken();
    await (await getDb())
      .insert(shareLinks)
      .values({ tenantId: a.tenantId, token, entityType: "listing", entityId: foreign.id, coordinateSeed: newCoordinateSeed() });
    expect((await open(token)).status).toBe(404);
    const bLink = await makeShareLink(b, { entityType: "listing", entityId: foreign.id });
    const res = await open(bLink.token);
    expect(res.body.tenantId).toBe(b.tenantId);
  });

  it("records each successful open (time, hashed address, user agent, referrer) and no failed one", async () => {
    const t = await makeTenant();
    const l = await makeListing(t);
    const link = await makeShareLink(t, { entityType: "listing", entityId: l.id, password: "segredo" });
    const h = { [CLIENT_ADDRESS_HEADER]: "203.0.113.9", "user-agent": "Mozilla/5.0 Teste", referer: "https://wa.me/" };
    expect((await openPost(link.token, {}, h)).status).toBe(401);
    expect((await openPost(link.token, { password: "x-errada" }, h)).status).toBe(403);
    expect((await openPost(link.token, { password: "segredo" }, h)).status).toBe(200);
    expect((await openPost(link.token, { password: "segredo" }, { ...h, [CLIENT_ADDRESS_HEADER]: "203.0.113.10" })).status).toBe(200);
    await settleAccesses();
    const views = await call(viewsRoute.GET, "GET", "/x", { key: t.key, params: { id: link.id } });
    expect(views.body.total).toBe(2);
    const [v1, v2] = views.body.items;
    expect(v1).toMatchObject({ userAgent: "Mozilla/5.0 Teste", referrer: "https://wa.me/" });
    expect(v1.clientHash).not.toBe(v2.clientHash);
    expect(JSON.stringify(views.body)).not.toContain("203.0.113");
    const after = await call(linkRoute.GET, "GET", "/x", { key: t.key, params: { id: link.id } });
    expect(after.body.viewCount).toBe(2);
    expect(after.body.lastViewedAt).not.toBeNull();
  });
});

describe("shortlistId on the sites property endpoint", () => {
  it("shows an unpublished listing of a shared shortlist, and nothing else", async () => {
    const t = await makeTenant();
    const site = await makeSite(t);
    const draft = await makeListing(t, { stage: "draft", visibility: "private" });
    const outside = await makeListing(t, { stage: "draft" });
    const sl = (await call(shortlistsRoute.POST, "POST", "/x", { key: t.key, body: { name: "S", listingIds: [draft.id] } })).body;
    const detail = (id: string, shortlistId?: string) =>
      call(propertyRoute.GET, "GET", "/x", { params: { siteId: site.id, id }, query: shortlistId ? { shortlistId } : {}, headers: client() });
    expect((await detail(draft.id)).status).toBe(404);
    expect((await detail(draft.id, sl.id)).status).toBe(404); // not shared yet
    const link = await makeShareLink(t, { entityType: "shortlist", entityId: sl.id });
    const seen = await detail(draft.id, sl.id);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ id: draft.id, title: expect.any(String) });
    expect((await detail(draft.code, sl.id)).status).toBe(200);
    expect((await detail(outside.id, sl.id)).status).toBe(404);
    expect((await detail(draft.id, "not-a-uuid")).status).toBe(400); // a malformed id is the caller's mistake (issue 32)
    const other = await makeTenant();
    const otherSite = await makeSite(other);
    expect(
      (await call(propertyRoute.GET, "GET", "/x", { params: { siteId: otherSite.id, id: draft.id }, query: { shortlistId: sl.id }, headers: client() })).status,
    ).toBe(404);
    await call(linkRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: link.id } });
    expect((await detail(draft.id, sl.id)).status).toBe(404);
  });
});
