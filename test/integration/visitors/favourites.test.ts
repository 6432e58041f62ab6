/**
 * Favourites of anonymous site visitors (issue 37): the public sync endpoint (validation, foreign
 * and unpublished listings, 404, rate limit), and the deal's interests: attached once when the
 * visitor sends the lead form or leaves a contact in the chat, and added to by later syncs.
 * Another tenant's key sees neither the deal nor its interests.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";

// The lead form's route reads the request's host from Next.js; these tests are outside a request.
vi.mock("next/headers", () => ({ headers: async () => new Headers({ host: "localhost", "x-forwarded-proto": "https" }) }));
import * as favouritesRoute from "../../../app/api/sites/[siteId]/visitors/[visitorId]/favourites/route";
import * as dealRoute from "../../../app/api/v1/crm/deals/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as marketingRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as sessionsRoute from "../../../app/api/sites/[siteId]/chat/sessions/route";
import * as leadRoute from "../../../app/site-render/[site]/[locale]/lead/route";
import { getDb } from "../../../db/client";
import { inboundLeads, siteVisitors } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { processLead } from "../../../lib/leads/inbound/process-lead";
import { attachVisitorInterests } from "../../../lib/visitors/attach-interests";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let a: TestTenant;
let b: TestTenant;
let site: { id: string; domain: string };
let otherSite: { id: string; domain: string };
const L: Record<string, string> = {};
let ip = 0;
const from = () => ({ [CLIENT_ADDRESS_HEADER]: `10.37.${Math.floor(++ip / 250)}.${ip % 250}` });

async function listing(t: TestTenant, key: string, over: Record<string, unknown> = {}) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: { type: "apartment", bedrooms: 2, totalArea: "80" },
      location: { neighborhood: "Pinheiros", city: "São Paulo", state: "SP" },
      listings: [{ title: `Apartamento ${key}`, type: "sale", price: "800000", visibility: "public", stage: "active", ...over }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  L[key] = res.body.listings[0].id;
}

const sync = (siteId: string, visitorId: string, body: unknown, headers: Record<string, string> = from()) =>
  call(favouritesRoute.POST, "POST", `/api/sites/${siteId}/visitors/${visitorId}/favourites`, { params: { siteId, visitorId }, body, headers });

const postLead = (fields: Record<string, string>) => {
  const req = new Request(`https://${site.domain}/lead`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", host: site.domain, ...from() },
    body: new URLSearchParams({ name: "Ana", email: `ana-${++ip}@example.com`, landingPage: "/imoveis", ...fields }),
  });
  return leadRoute.POST(req, { params: Promise.resolve({ site: `d~${site.domain}`, locale: "pt-BR" }) });
};

/** The lead the last form made, processed now (the job would do it in the background). */
async function processLastLead(): Promise<string> {
  const db = await getDb();
  const rows = await db.select().from(inboundLeads).where(eq(inboundLeads.tenantId, a.tenantId));
  const last = rows.sort((x, y) => y.receivedAt.getTime() - x.receivedAt.getTime())[0];
  const done = await processLead(db, last.id);
  expect(done.status).toBe("processed");
  return done.lead!.dealIds[0];
}

const interestsOf = async (key: string, dealId: string) => call(dealRoute.GET, "GET", `/api/v1/crm/deals/${dealId}`, { key, params: { id: dealId } });
const kinds = (body: any) => body.interests.map((i: any) => `${i.kind}:${i.listingId}`).sort();

beforeAll(async () => {
  a = await makeTenant("Imobiliária dos Favoritos");
  b = await makeTenant("Outra Imobiliária");
  for (const k of ["one", "two", "three", "four"]) await listing(a, k);
  await listing(a, "draft", { stage: "draft" });
  await listing(a, "private", { visibility: "private" });
  await listing(b, "foreign");
  site = await makeSite(a);
  otherSite = await makeSite(b);
  expect((await call(marketingRoute.POST, "POST", "/x", { key: a.key, body: { name: "Site", kind: "website" } })).status).toBe(201);
});

describe("POST /api/sites/{siteId}/visitors/{visitorId}/favourites", () => {
  it("stores the browser's list, replacing the previous one, and answers only what was sent", async () => {
    const v = crypto.randomUUID();
    const first = await sync(site.id, v, { listingIds: [L.one, L.two, L.one] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ visitorId: v, listingIds: [L.one, L.two], identified: false });
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    const second = await sync(site.id, v.toUpperCase(), { listingIds: [L.two] });
    expect(second.body).toEqual({ visitorId: v, listingIds: [L.two], identified: false });
  });

  it("answers 400 naming the field: visitorId, body fields, unknown keys, too many", async () => {
    const bad = await sync(site.id, "not-a-uuid", { listingIds: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("visitorId");
    const v = crypto.randomUUID();
    const cases: [unknown, string][] = [
      [{}, "listingIds"],
      [{ listingIds: "x" }, "listingIds"],
      [{ listingIds: ["AP0042"] }, "listingIds.0"],
      [{ listingIds: [], compared: [L.one, L.two, L.three, L.four, L.one] }, ""],
      [{ listingIds: [], extra: 1 }, "extra"],
      [{ listingIds: Array.from({ length: 51 }, () => crypto.randomUUID()) }, "listingIds"],
    ];
    for (const [body, field] of cases) {
      const res = await sync(site.id, v, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    // Nothing was stored for that visitor.
    const rows = await (await getDb()).select().from(siteVisitors).where(eq(siteVisitors.visitorId, v));
    expect(rows).toEqual([]);
  });

  it("refuses listings the site does not show: another tenant's, a draft, a private one, an unknown id", async () => {
    const v = crypto.randomUUID();
    for (const id of [L.foreign, L.draft, L.private, crypto.randomUUID()]) {
      const res = await sync(site.id, v, { listingIds: [L.one, id] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "listing_not_available" });
      expect(res.body.error.message).toContain("listingIds.1");
    }
    const viaViewed = await sync(site.id, v, { listingIds: [], viewed: [L.foreign] });
    expect(viaViewed.body.error.message).toContain("viewed.0");
    // Another tenant's site does not take this tenant's listing either.
    expect((await sync(otherSite.id, v, { listingIds: [L.one] })).status).toBe(400);
  });

  it("answers 404 for an unknown site or one that is not a UUID", async () => {
    for (const id of [crypto.randomUUID(), "nope"]) {
      const res = await sync(id, crypto.randomUUID(), { listingIds: [] });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe("Site not found");
    }
  });

  it("limits syncs per client address (429 after 30 a minute)", async () => {
    const same = from();
    const v = crypto.randomUUID();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await sync(site.id, v, { listingIds: [L.one] }, same)).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe("interests on the deal", () => {
  it("attaches the visitor's favourites once when it sends the lead form, and adds later syncs to the same deal", async () => {
    const v = crypto.randomUUID();
    expect((await sync(site.id, v, { listingIds: [L.one, L.two], compared: [L.one, L.two] })).status).toBe(200);
    // Anonymous: views are not kept.
    expect((await sync(site.id, v, { listingIds: [L.one, L.two], viewed: [L.three] })).body.identified).toBe(false);
    const res = await postLead({ visitorId: v, listingId: L.one });
    expect(res.headers.get("location")).toContain("lead=sent");
    const dealId = await processLastLead();
    const deal = await interestsOf(a.key, dealId);
    expect(deal.status).toBe(200);
    expect(kinds(deal.body)).toEqual([`compared:${L.one}`, `compared:${L.two}`, `favourite:${L.one}`, `favourite:${L.two}`].sort());
    for (const i of deal.body.interests) expect(Number.isNaN(Date.parse(i.at))).toBe(false);

    // Later: a heart taken off, another added, a listing page viewed; all reach the same deal.
    const later = await sync(site.id, v, { listingIds: [L.two, L.three], viewed: [L.four] });
    expect(later.body.identified).toBe(true);
    const after = await interestsOf(a.key, dealId);
    expect(kinds(after.body)).toEqual(
      [`compared:${L.one}`, `compared:${L.two}`, `favourite:${L.one}`, `favourite:${L.two}`, `favourite:${L.three}`, `viewed:${L.four}`].sort(),
    );
    // Synced again, nothing doubles.
    await sync(site.id, v, { listingIds: [L.two, L.three], viewed: [L.four] });
    expect((await interestsOf(a.key, dealId)).body.interests).toHaveLength(6);

    // Another tenant's key sees neither the deal nor its interests.
    const foreign = await interestsOf(b.key, dealId);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain(L.two);
  });

  it("a lead form without a visitorId, or with a malformed one, attaches nothing", async () => {
    expect((await postLead({ visitorId: "abc" })).headers.get("location")).toContain("lead=invalid");
    await postLead({});
    const dealId = await processLastLead();
    expect((await interestsOf(a.key, dealId)).body.interests).toEqual([]);
  });

  it("a web chat contact left with consent and the visitorId attaches the favourites too", async () => {
    const res = await call(channelsRoute.POST, "POST", "/x", { key: a.key, body: { name: "Chat", transport: "web_chat" } });
    const chatSite = await makeSite(a, { chat: { channelId: res.body.id } });
    const v = crypto.randomUUID();
    expect((await sync(chatSite.id, v, { listingIds: [L.three] })).status).toBe(200);
    const open = await call(sessionsRoute.POST, "POST", "/x", {
      params: { siteId: chatSite.id },
      body: { name: "Bia", email: "bia@example.com", consent: true, visitorId: v },
      headers: from(),
    });
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    const dealId = await processLastLead();
    expect(kinds((await interestsOf(a.key, dealId)).body)).toEqual([`favourite:${L.three}`]);
    const badId = await call(sessionsRoute.POST, "POST", "/x", { params: { siteId: chatSite.id }, body: { visitorId: "x" }, headers: from() });
    expect(badId.status).toBe(400);
    expect(badId.body.error.message).toContain("visitorId");
  });

  it("attachVisitorInterests refuses a deal of another tenant (nothing linked)", async () => {
    const v = crypto.randomUUID();
    await sync(site.id, v, { listingIds: [L.one] });
    await postLead({ visitorId: v });
    const dealId = await processLastLead();
    const db = await getDb();
    await expect(attachVisitorInterests(db, { tenantId: b.tenantId, siteId: site.id, visitorId: v, dealId })).rejects.toThrow(/not this tenant's/);
    await expect(attachVisitorInterests(db, { tenantId: a.tenantId, siteId: otherSite.id, visitorId: v, dealId })).rejects.toThrow(/not this tenant's/);
    // Called again by another flow (a booking, a saved search): idempotent.
    expect(await attachVisitorInterests(db, { tenantId: a.tenantId, siteId: site.id, visitorId: v, dealId })).toBe(0);
  });
});
