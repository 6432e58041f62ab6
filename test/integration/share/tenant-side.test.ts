import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as itineraryRoute from "../../../app/api/v1/crm/visit-itineraries/[id]/route";
import * as itinerariesRoute from "../../../app/api/v1/crm/visit-itineraries/route";
import * as shortlistRoute from "../../../app/api/v1/crm/shortlists/[id]/route";
import * as shortlistsRoute from "../../../app/api/v1/crm/shortlists/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import * as linkRoute from "../../../app/api/v1/share-links/[id]/route";
import * as viewsRoute from "../../../app/api/v1/share-links/[id]/views/route";
import * as linksRoute from "../../../app/api/v1/share-links/route";
import { getDb } from "../../../db/client";
import { shareLinks } from "../../../db/schema";
import { verifyPassword } from "../../../lib/share/secrets";
import { makeMember, makeTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeListing, makeShareLink } from "../../helpers/share";
import { makeSite, makeVerifiedSite } from "../../helpers/sites";

describe("sharingConfig in tenant settings", () => {
  it("reads every key of spec 2 §2.8 with its default", async () => {
    const t = await makeTenant();
    const res = await call(settingsRoute.GET, "GET", "/x", { key: t.key });
    expect(res.body.sharingConfig).toEqual({
      fieldVisibility: {
        address: "neighborhood_only",
        coordinates: "approximate",
        financials: "visible",
        price: "inherit",
        listingCode: "visible",
        agentInfo: "visible",
      },
      showFinancialSimulator: true,
      restrictions: { hideSharesForStages: [], preventCreationForStages: [], preventCreationForStatuses: [], autoHideTerminalStages: true },
      defaultShareDomain: { type: "auto" },
      pricingTool: { sellerIntentCreates: "deal", includeNetworkListings: false },
      chatChannelId: null,
    });
  });

  it("takes a partial object (missing keys read as defaults) and validates values, templates and sites", async () => {
    const t = await makeTenant();
    const patch = (sharingConfig: unknown) => call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { sharingConfig } });
    const ok = await patch({ fieldVisibility: { price: "hidden" }, restrictions: { autoHideTerminalStages: false } });
    expect(ok.status).toBe(200);
    expect(ok.body.sharingConfig.fieldVisibility).toMatchObject({ price: "hidden", address: "neighborhood_only" });
    expect(ok.body.sharingConfig.restrictions.autoHideTerminalStages).toBe(false);
    const bad: [unknown, RegExp][] = [
      [{ fieldVisibility: { address: "street" } }, /address/],
      [{ fieldVisibility: { agentInfo: "hidden" } }, /agentInfo/],
      [{ defaultShareDomain: { type: "custom", custom: { mode: "proxy", domain: "share.casa.com.br", pathTemplate: "/imovel" } } }, /token/],
      [{ defaultShareDomain: { type: "custom", custom: { mode: "edge", domain: "share.casa.com.br", pathTemplate: "/i/{token}" } } }, /mode/],
      [{ defaultShareDomain: { type: "site", siteId: "00000000-0000-4000-8000-000000000000" } }, /not one of this tenant's sites/],
      [{ pricingTool: { sellerIntentCreates: "listing" } }, /sellerIntentCreates/],
      [{ unknownKey: true }, /unknownKey/],
    ];
    for (const [cfg, msg] of bad) {
      const res = await patch(cfg);
      expect(res.status, JSON.stringify(cfg)).toBe(400);
      expect(JSON.stringify(res.body.error)).toMatch(msg);
    }
    const other = await makeTenant();
    const foreign = await makeSite(other);
    expect((await patch({ defaultShareDomain: { type: "site", siteId: foreign.id } })).status).toBe(400);
    const mine = await makeSite(t);
    expect((await patch({ defaultShareDomain: { type: "site", siteId: mine.id } })).status).toBe(200);
  });
});

describe("shortlists and visit itineraries", () => {
  it("CRUD a shortlist in order; another tenant's listing is refused at creation; another tenant's id is a 404", async () => {
    const t = await makeTenant();
    const [a, b] = [await makeListing(t), await makeListing(t)];
    const created = await call(shortlistsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { name: "Para a família Souza", description: "Perto do metrô", listingIds: [b.id, a.id] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: "Para a família Souza", listingIds: [b.id, a.id], dealId: null });
    const id = created.body.id;
    const patched = await call(shortlistRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id }, body: { listingIds: [a.id] } });
    expect(patched.body.listingIds).toEqual([a.id]);
    expect((await call(shortlistsRoute.GET, "GET", "/x", { key: t.key })).body.items.map((s: any) => s.id)).toEqual([id]);

    const other = await makeTenant();
    const foreign = await makeListing(other);
    const refused = await call(shortlistsRoute.POST, "POST", "/x", { key: t.key, body: { name: "X", listingIds: [a.id, foreign.id] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(`listingIds[1]: '${foreign.id}'`);
    expect((await call(shortlistRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id }, body: { listingIds: [foreign.id] } })).status).toBe(400);
    expect((await call(shortlistsRoute.POST, "POST", "/x", { key: t.key, body: { name: "X", listingIds: [a.id, a.id] } })).status).toBe(400);
    for (const h of [shortlistRoute.GET, shortlistRoute.DELETE]) expect((await call(h, "GET", "/x", { key: other.key, params: { id } })).status).toBe(404);
    expect((await call(shortlistsRoute.GET, "GET", "/x", { key: other.key })).body.items).toEqual([]);
    expect((await call(shortlistRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id } })).body).toEqual({ id, deleted: true });
    expect((await call(shortlistRoute.GET, "GET", "/x", { key: t.key, params: { id } })).status).toBe(404);
  });

  it("an itinerary keeps its stops and computes the visiting order and straight-line legs", async () => {
    const t = await makeTenant();
    const far = await makeListing(t, {}, {}, { latitude: -23.6, longitude: -46.69 });
    const near = await makeListing(t, {}, {}, { latitude: -23.5565, longitude: -46.69 });
    const meetingPoint = { name: "Metrô Vila Madalena", address: "Rua Heitor Penteado", latitude: -23.5464, longitude: -46.6909 };
    const res = await call(itinerariesRoute.POST, "POST", "/x", {
      key: t.key,
      body: { name: "Sábado", scheduledDate: "2027-03-06", meetingPoint, stops: [{ listingId: far.id }, { listingId: near.id, notes: "Chaves na portaria" }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.stops).toEqual([
      { listingId: far.id, time: null, notes: null },
      { listingId: near.id, time: null, notes: "Chaves na portaria" },
    ]);
    // No times: nearest first from the meeting point.
    expect(res.body.routeCache.order).toEqual([near.id, far.id]);
    expect(res.body.routeCache.legs[0]).toMatchObject({ fromListingId: null, toListingId: near.id });
    expect(res.body.routeCache.legs[0].distanceMeters).toBe(1100); // 0.0101° of latitude ≈ 1123 m, rounded to 100 m
    expect(res.body.routeCache.legs[1].distanceMeters).toBeGreaterThan(4000);
    const timed = await call(itineraryRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { id: res.body.id },
      body: {
        stops: [
          { listingId: near.id, time: "15:00" },
          { listingId: far.id, time: "09:30" },
        ],
      },
    });
    expect(timed.body.routeCache.order).toEqual([far.id, near.id]);
    for (const body of [
      { name: "X", scheduledDate: "06/03/2027" },
      { name: "X", scheduledDate: "2027-03-06", stops: [{ listingId: far.id, time: "25:00" }] },
    ]) {
      expect((await call(itinerariesRoute.POST, "POST", "/x", { key: t.key, body })).status).toBe(400);
    }
    const other = await makeTenant();
    expect(
      (await call(itinerariesRoute.POST, "POST", "/x", { key: other.key, body: { name: "X", scheduledDate: "2027-03-06", stops: [{ listingId: far.id }] } }))
        .status,
    ).toBe(400);
    expect((await call(itineraryRoute.GET, "GET", "/x", { key: other.key, params: { id: res.body.id } })).status).toBe(404);
  });
});

describe("share links (tenant side)", () => {
  it("creates a link with a long random token and its URL; the password is hashed and never returned", async () => {
    const t = await makeTenant();
    const l = await makeListing(t, { visibility: "private" });
    const res = await call(linksRoute.POST, "POST", "/x", { key: t.key, body: { entityType: "listing", entityId: l.id, password: "segredo123" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{32}$/); // 192 bits
    expect(res.body.url).toBe(`http://${t.slug}.share.localhost:3000/p/${res.body.token}`);
    expect(res.body).toMatchObject({ entityType: "listing", entityId: l.id, hasPassword: true, active: true, viewCount: 0, expiresAt: null });
    expect(JSON.stringify(res.body)).not.toMatch(/segredo123|scrypt|password_?hash/i);
    const [row] = await (await getDb()).select().from(shareLinks).where(eq(shareLinks.id, res.body.id));
    expect(row.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword("segredo123", row.passwordHash!)).toBe(true);
    expect(await verifyPassword("segredo124", row.passwordHash!)).toBe(false);
    const tokens = new Set([res.body.token, (await makeShareLink(t, { entityType: "listing", entityId: l.id })).token]);
    expect(tokens.size).toBe(2);
  });

  it("builds URLs from defaultShareDomain: a site's domain, or a custom domain and template", async () => {
    const t = await makeTenant();
    const l = await makeListing(t);
    const pending = await makeSite(t, { domain: "www.pendente-share.com.br" });
    await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { sharingConfig: { defaultShareDomain: { type: "site", siteId: pending.id } } } });
    // A custom domain not yet proven serves nothing: links go to the share domain meanwhile.
    const early = await makeShareLink(t, { entityType: "listing", entityId: l.id });
    expect(early.url).toBe(`http://${t.slug}.share.localhost:3000/p/${early.token}`);
    // A local name is served on the installation's port, which stored names no longer carry.
    const local = await makeSite(t);
    await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { sharingConfig: { defaultShareDomain: { type: "site", siteId: local.id } } } });
    const onLocal = await makeShareLink(t, { entityType: "listing", entityId: l.id });
    expect(onLocal.url).toBe(`http://${local.domain}:3000/p/${onLocal.token}`);
    const site = await makeVerifiedSite(t, "www.casa-share.com.br");
    await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { sharingConfig: { defaultShareDomain: { type: "site", siteId: site.id } } } });
    const a = await makeShareLink(t, { entityType: "listing", entityId: l.id });
    expect(a.url).toBe(`https://www.casa-share.com.br/p/${a.token}`);
    await call(settingsRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      body: {
        sharingConfig: {
          defaultShareDomain: { type: "custom", custom: { mode: "api", domain: "share.casa.com.br", pathTemplate: "/imovel/{token}?src=crm" } },
        },
      },
    });
    const b = (await call(linkRoute.GET, "GET", "/x", { key: t.key, params: { id: a.id } })).body;
    expect(b.url).toBe(`https://share.casa.com.br/imovel/${a.token}?src=crm`);
  });

  it("refuses links for stages and statuses the rules prevent (409 share_creation_prevented, naming the rule)", async () => {
    const t = await makeTenant();
    await call(settingsRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      body: { sharingConfig: { restrictions: { preventCreationForStages: ["suspended"], preventCreationForStatuses: ["reserved"] } } },
    });
    const suspended = await makeListing(t, { stage: "suspended", status: "owner_request" });
    const reserved = await makeListing(t, { stage: "active", status: "reserved" });
    const fine = await makeListing(t, { stage: "active", status: "available" });
    for (const [l, rule] of [
      [suspended, "preventCreationForStages"],
      [reserved, "preventCreationForStatuses"],
    ] as const) {
      for (const entityType of ["listing", "seller_report"]) {
        const res = await call(linksRoute.POST, "POST", "/x", { key: t.key, body: { entityType, entityId: l.id } });
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe("share_creation_prevented");
        expect(res.body.error.message).toContain(rule);
      }
    }
    expect((await call(linksRoute.POST, "POST", "/x", { key: t.key, body: { entityType: "listing", entityId: fine.id } })).status).toBe(201);
  });

  it("validates the body and the entity, and isolates tenants", async () => {
    const t = await makeTenant();
    const other = await makeTenant();
    const l = await makeListing(t);
    const foreign = await makeListing(other);
    const bad = [
      {},
      { entityType: "listing" },
      { entityType: "house", entityId: l.id },
      { entityType: "listing", entityId: "abc" },
      { entityType: "listing", entityId: l.id, expiresAt: "2020-01-01T00:00:00Z" },
      { entityType: "listing", entityId: l.id, password: "123" },
      { entityType: "listing", entityId: l.id, extra: 1 },
      { entityType: "pricing_tool", entityId: t.tenantId },
    ];
    for (const body of bad) expect((await call(linksRoute.POST, "POST", "/x", { key: t.key, body })).status, JSON.stringify(body)).toBe(400);
    expect((await call(linksRoute.POST, "POST", "/x", { key: t.key, body: { entityType: "listing", entityId: foreign.id } })).status).toBe(404);
    expect((await call(linksRoute.POST, "POST", "/x", { key: t.key, body: { entityType: "shortlist", entityId: foreign.id } })).status).toBe(404);
    const link = await makeShareLink(t, { entityType: "listing", entityId: l.id });
    for (const [h, m] of [
      [linkRoute.GET, "GET"],
      [linkRoute.DELETE, "DELETE"],
      [viewsRoute.GET, "GET"],
    ] as const) {
      expect((await call(h, m, "/x", { key: other.key, params: { id: link.id } })).status).toBe(404);
    }
    expect((await call(linkRoute.PATCH, "PATCH", "/x", { key: other.key, params: { id: link.id }, body: { active: false } })).status).toBe(404);
    expect((await call(linksRoute.GET, "GET", "/x", { key: other.key })).body.items).toEqual([]);
    expect((await call(linksRoute.GET, "GET", "/x")).status).toBe(401);
  });

  it("lists by entity, patches expiry, password and active, and DELETE deactivates; restricted keys see their own links", async () => {
    const t = await makeTenant();
    const a = await makeListing(t);
    const b = await makeListing(t);
    const la = await makeShareLink(t, { entityType: "listing", entityId: a.id });
    await makeShareLink(t, { entityType: "seller_report", entityId: b.id });
    const list = await call(linksRoute.GET, "GET", "/x", { key: t.key, query: { entityType: "listing", entityId: a.id } });
    expect(list.body.items.map((x: any) => x.id)).toEqual([la.id]);
    expect(list.body.total).toBe(1);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const p = await call(linkRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: la.id }, body: { expiresAt, password: "nova-senha" } });
    expect(p.body).toMatchObject({ expiresAt, hasPassword: true });
    expect((await call(linkRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: la.id }, body: { password: null } })).body.hasPassword).toBe(false);
    expect((await call(linkRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: la.id }, body: {} })).status).toBe(400);
    const del = await call(linkRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: la.id } });
    expect(del.body.active).toBe(false);
    expect((await call(linksRoute.GET, "GET", "/x", { key: t.key, query: { active: "false" } })).body.items.map((x: any) => x.id)).toEqual([la.id]);
    const broker = await makeMember(t, "broker", "restricted");
    expect((await call(linksRoute.GET, "GET", "/x", { key: broker.key })).body.items).toEqual([]);
    expect((await call(linkRoute.GET, "GET", "/x", { key: broker.key, params: { id: la.id } })).status).toBe(404);
  });
});
