/**
 * The channel webhook: authentication, limits, lenient parsing, store-before-answer, dedupe of
 * `originLeadId` (also under 50 concurrent posts), sync answers, processing into one attributed,
 * distributed deal, the lead log and replay, and channel token settings.
 */
import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { InngestTestEngine } from "@inngest/test";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { functions } from "../../../inngest/functions";
import * as webhookRoute from "../../../app/api/webhooks/channels/[pathToken]/route";
import * as channelRoute from "../../../app/api/v1/settings/marketing-channels/[id]/route";
import * as feedTokenRoute from "../../../app/api/v1/settings/marketing-channels/[id]/feed-token/route";
import * as leadsRoute from "../../../app/api/v1/settings/marketing-channels/[id]/leads/route";
import * as replayRoute from "../../../app/api/v1/settings/marketing-channels/[id]/leads/[leadId]/replay/route";
import * as pathTokenRoute from "../../../app/api/v1/settings/marketing-channels/[id]/path-token/route";
import * as secretRoute from "../../../app/api/v1/settings/marketing-channels/[id]/secret/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as settingsRoute from "../../../app/api/v1/settings/route";
import { getDb } from "../../../db/client";
import { contacts, deals, events, inboundLeads, tasks } from "../../../db/schema";
import { processLead } from "../../../lib/leads/inbound/process-lead";
import { makeMember, makeTenant, propertyBody, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";

let t: TestTenant;
let other: TestTenant;
let brokers: { userId: string }[];

async function channel(owner: TestTenant, body: Record<string, unknown> = {}) {
  const res = await call(channelsRoute.POST, "POST", "/x", {
    key: owner.key,
    body: { name: "Portal", kind: "portal", queue: brokers.map((b) => b.userId), ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; pathToken: string; feedToken: string };
}

function post(pathToken: string, body: unknown, opts: { query?: string; headers?: Record<string, string>; raw?: string } = {}) {
  const raw = opts.raw ?? JSON.stringify(body);
  const req = new Request(`http://localhost/api/webhooks/channels/${pathToken}${opts.query ?? ""}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...opts.headers },
    body: raw,
  });
  return send(webhookRoute.POST, req, { pathToken }).then(async (res) => ({ status: res.status, body: await res.json() }));
}

const leadRows = async (channelId: string) => (await getDb()).select().from(inboundLeads).where(eq(inboundLeads.channelId, channelId));
const dealsOf = async (channelId: string) => (await getDb()).select().from(deals).where(eq(deals.marketingChannelInstanceId, channelId));

beforeAll(async () => {
  t = await makeTenant();
  other = await makeTenant();
  brokers = [await makeMember(t, "broker"), await makeMember(t, "broker")];
});

describe("channel settings", () => {
  it("gives a chnl_ path token, a feed token once, and rotates them", async () => {
    const c = await channel(t);
    expect(c.pathToken).toMatch(/^chnl_[A-Za-z0-9_-]{32,}$/);
    expect(c.feedToken).toMatch(/^feed_/);
    const list = await call(channelsRoute.GET, "GET", "/x", { key: t.key });
    const listed = list.body.items.find((i: any) => i.id === c.id);
    expect(listed).toMatchObject({
      pathToken: c.pathToken,
      hasSecret: false,
      destinations: { deal: true, listing: false },
      leadIntakeConfig: { syncResponse: false },
    });
    expect(listed).not.toHaveProperty("feedToken");
    const rotated = await call(pathTokenRoute.POST, "POST", "/x", { key: t.key, params: { id: c.id } });
    expect(rotated.body.pathToken).not.toBe(c.pathToken);
    expect((await post(c.pathToken, { name: "x" })).status).toBe(404);
    expect((await post(rotated.body.pathToken, { name: "x" })).status).toBe(202);
    const feed = await call(feedTokenRoute.POST, "POST", "/x", { key: t.key, params: { id: c.id } });
    expect(feed.body.feedToken).toMatch(/^feed_/);
    expect(feed.body.feedToken).not.toBe(c.feedToken);
  });

  it("answers 404 for another tenant's channel settings", async () => {
    const c = await channel(t);
    expect((await call(pathTokenRoute.POST, "POST", "/x", { key: other.key, params: { id: c.id } })).status).toBe(404);
    expect((await call(leadsRoute.GET, "GET", "/x", { key: other.key, params: { id: c.id } })).status).toBe(404);
    expect((await call(channelRoute.PATCH, "PATCH", "/x", { key: other.key, params: { id: c.id }, body: { name: "x" } })).status).toBe(404);
  });
});

describe("POST /api/webhooks/channels/{pathToken}", () => {
  it("answers 404 for unknown and inactive channels, 413 over 256 KB, 400 for a non-object", async () => {
    expect((await post("chnl_doesnotexistdoesnotexist", {})).status).toBe(404);
    const c = await channel(t);
    expect((await post(c.pathToken, [1, 2])).status).toBe(400);
    expect((await post(c.pathToken, null, { raw: "{oops" })).status).toBe(400);
    expect((await post(c.pathToken, { message: "x".repeat(300 * 1024) })).status).toBe(413);
    expect((await post(c.pathToken, { name: "x", destination: "listing" })).status).toBe(403);
    expect((await post(c.pathToken, { name: "x" }, { headers: { "x-inbound-destination": "listing" } })).status).toBe(403);
    await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: c.id }, body: { active: false } });
    expect((await post(c.pathToken, { name: "x" })).status).toBe(404);
    expect(await leadRows(c.id)).toHaveLength(0);
  });

  it("with a secret, takes Bearer or the body's HMAC (with or without sha256=) and refuses the rest with 401", async () => {
    const c = await channel(t);
    const set = await call(secretRoute.POST, "POST", "/x", { key: t.key, params: { id: c.id }, body: { secret: "a-very-long-channel-secret" } });
    expect(set.body.secret).toBe("a-very-long-channel-secret");
    const raw = JSON.stringify({ name: "Ana", phone: "11 98888-7777" });
    const hmac = createHmac("sha256", "a-very-long-channel-secret").update(raw).digest("hex");
    expect((await post(c.pathToken, null, { raw })).status).toBe(401);
    expect((await post(c.pathToken, null, { raw, headers: { authorization: "Bearer wrong-secret" } })).status).toBe(401);
    expect((await post(c.pathToken, null, { raw, headers: { "x-hmac-sha256": "00".repeat(32) } })).status).toBe(401);
    expect((await post(c.pathToken, null, { raw, headers: { authorization: "Bearer a-very-long-channel-secret" } })).status).toBe(202);
    expect((await post(c.pathToken, null, { raw, headers: { "x-hmac-sha256": hmac } })).status).toBe(202);
    expect((await post(c.pathToken, null, { raw, headers: { "x-signature": `sha256=${hmac}` } })).status).toBe(202);
    // The signature is over the exact bytes: a re-serialized body does not match.
    expect((await post(c.pathToken, null, { raw: raw.replace(":", ": "), headers: { "x-hmac-sha256": hmac } })).status).toBe(401);
    expect(await leadRows(c.id)).toHaveLength(3);
    const generated = await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: c.id }, body: { name: "Portal 2" } });
    expect(generated.body.hasSecret).toBe(true);
    expect(JSON.stringify(generated.body)).not.toContain("a-very-long-channel-secret");
    const empty = await call(secretRoute.POST, "POST", "/x", { key: t.key, params: { id: c.id } });
    expect(empty.body.secret).toMatch(/^whsec_/);
    expect((await call(secretRoute.DELETE, "DELETE", "/x", { key: t.key, params: { id: c.id } })).body.hasSecret).toBe(false);
    expect((await post(c.pathToken, null, { raw })).status).toBe(202);
  });

  it("takes a channel's changes on the next post, whatever the channel was on the posts before (a new secret, destinations, deactivation)", async () => {
    const c = await channel(t);
    const raw = JSON.stringify({ name: "Bia", phone: "11 97777-6666" });
    // Posts without a secret: this process has now seen the channel as it was.
    expect((await post(c.pathToken, null, { raw })).status).toBe(202);
    await call(secretRoute.POST, "POST", "/x", { key: t.key, params: { id: c.id }, body: { secret: "the-second-channel-secret" } });
    expect((await post(c.pathToken, null, { raw })).status).toBe(401);
    expect((await post(c.pathToken, null, { raw, headers: { authorization: "Bearer the-second-channel-secret" } })).status).toBe(202);
    await call(secretRoute.POST, "POST", "/x", { key: t.key, params: { id: c.id }, body: { secret: "the-third-channel-secret" } });
    expect((await post(c.pathToken, null, { raw, headers: { authorization: "Bearer the-second-channel-secret" } })).status).toBe(401);
    // Destinations: refused while off, taken as soon as it is on, refused again once off.
    const auth = { authorization: "Bearer the-third-channel-secret" };
    expect((await post(c.pathToken, { name: "Dono", destination: "listing" }, { headers: auth })).status).toBe(403);
    await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: c.id }, body: { destinations: { deal: true, listing: true } } });
    expect((await post(c.pathToken, { name: "Dono", destination: "listing" }, { headers: auth })).status).toBe(202);
    await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: c.id }, body: { destinations: { deal: true, listing: false } } });
    expect((await post(c.pathToken, { name: "Dono", destination: "listing" }, { headers: auth })).status).toBe(403);
    await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: c.id }, body: { active: false } });
    expect((await post(c.pathToken, { name: "Bia" }, { headers: auth })).status).toBe(404);
    expect(await leadRows(c.id)).toHaveLength(3);
  });

  it("stores the lead before answering 202, keeps junk as text, and processing makes one attributed, distributed deal", async () => {
    const c = await channel(t);
    const res = await post(c.pathToken, {
      contactName: "Maria Lead",
      email: "Maria@Example.com",
      phone: "(11) 97654-3210",
      cpf: "não informado",
      businessType: "rent",
      propertyType: "apartment",
      bedrooms: "3",
      price: "abc",
      message: "Quero visitar",
      utmSource: "google",
      utmMedium: "cpc",
      utmCampaign: "inverno",
      gclid: "g-1",
      referrer: "not a url",
      landingPage: "/imovel/AP1",
      siteDomain: "casanova.example.com",
      originLeadId: "portal-1",
      externalId: "ext-9",
    });
    expect(res).toEqual({ status: 202, body: { ok: true, accepted: true } });
    const [stored] = await leadRows(c.id);
    expect(stored.status).toBe("received");
    expect(stored.rawBody).toContain("não informado");
    expect(stored.lead).toMatchObject({
      contactPhone: "+5511976543210",
      contactEmail: "maria@example.com",
      businessType: "rental",
      invalid: { cpf: "não informado", price: "abc", referrer: "not a url" },
    });
    expect((stored.lead as any).attribution).toMatchObject({ landingPage: "https://casanova.example.com/imovel/AP1", gclid: "g-1" });

    expect((await processLead(await getDb(), stored.id)).status).toBe("processed");
    const [deal] = await dealsOf(c.id);
    expect(deal).toMatchObject({ dealType: "rental", utmSource: "google", utmMedium: "cpc", utmCampaign: "inverno", source: "portal", createdById: null });
    expect(brokers.map((b) => b.userId)).toContain(deal.assignedToId);
    expect(deal.customData).toMatchObject({ propertyTypes: ["apartment"], bedrooms: 3, additionalNotes: "Quero visitar" });
    const names = (await (await getDb()).select().from(events).where(eq(events.entityId, deal.id))).map((e) => e.eventName);
    expect(names).toEqual(expect.arrayContaining(["deal.created", "distribution.assigned", "deal.attribution.tracked"]));
    const log = await call(leadsRoute.GET, "GET", "/x", { key: t.key, params: { id: c.id } });
    expect(log.body.items[0]).toMatchObject({ status: "processed", dealIds: [deal.id], invalidFields: expect.arrayContaining(["cpf", "price"]) });
    expect(log.body.items[0].decision.join(" ")).toContain("round robin");
    // Processing again changes nothing.
    expect((await processLead(await getDb(), stored.id)).status).toBe("done_before");
    expect(await dealsOf(c.id)).toHaveLength(1);
  });

  it("answers a repeated originLeadId with processing, then duplicate with the original ids", async () => {
    const c = await channel(t);
    const body = { name: "João", phone: "11 97777-6666", originLeadId: "dup-1" };
    expect((await post(c.pathToken, body)).status).toBe(202);
    expect(await post(c.pathToken, body)).toEqual({ status: 202, body: { ok: true, status: "processing", dealId: null } });
    const [lead] = await leadRows(c.id);
    await processLead(await getDb(), lead.id);
    const [deal] = await dealsOf(c.id);
    const again = await post(c.pathToken, body);
    expect(again).toEqual({
      status: 200,
      body: { ok: true, status: "duplicate", duplicate: true, idempotent: true, dealId: deal.id, listingId: null, assignedToId: deal.assignedToId },
    });
    expect(await leadRows(c.id)).toHaveLength(1);
  });

  it("makes one deal from 50 simultaneous posts of one originLeadId with sync=true", async () => {
    const c = await channel(t);
    const body = { name: "Rush", phone: "11 96666-5555", originLeadId: "rush-1" };
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(c.pathToken, body, { query: "?sync=true" })));
    for (const a of answers) expect([200, 202]).toContain(a.status);
    expect(await leadRows(c.id)).toHaveLength(1);
    const [lead] = await leadRows(c.id);
    if (lead.status !== "processed") await processLead(await getDb(), lead.id);
    expect(await dealsOf(c.id)).toHaveLength(1);
  });

  it("answers sync=deal with the deal (no assignee) and sync=assignment with the broker", async () => {
    const c = await channel(t);
    const deal = await post(c.pathToken, { name: "Sync", email: "sync@example.com" }, { query: "?sync=deal" });
    expect(deal.status).toBe(200);
    expect(deal.body).toMatchObject({ ok: true, status: "created", listingId: null, assignedToId: null, idempotent: false });
    expect(deal.body.dealId).toMatch(/^[0-9a-f-]{36}$/);
    const assigned = await post(c.pathToken, { name: "Sync 2", email: "sync2@example.com" }, { query: "?sync=assignment" });
    expect(brokers.map((b) => b.userId)).toContain(assigned.body.assignedToId);
    const bySetting = await channel(t, { leadIntakeConfig: { syncResponse: true } });
    expect((await post(bySetting.pathToken, { name: "Auto", phone: "11 95555-4444" })).body.status).toBe("created");
  });

  it("reuses a contact by phone, then e-mail, then CPF, and copies a referenced listing's data", async () => {
    const prop = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody({ bedrooms: 2 }) });
    const listing = prop.body.listings[0];
    const c = await channel(t);
    const first = await post(c.pathToken, { name: "Carla", cpf: "529.982.247-25", listingId: listing.listingCode }, { query: "?sync=true" });
    const second = await post(c.pathToken, { name: "Carla B", cpf: "52998224725", businessType: "both", listingId: listing.id }, { query: "?sync=true" });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.tenantId, t.tenantId), eq(contacts.cpf, "52998224725"))),
    ).toHaveLength(1);
    const made = await dealsOf(c.id);
    expect(made.map((d) => d.dealType).sort()).toEqual(["rental", "sale", "sale"]);
    for (const d of made) expect(d.customData).toMatchObject({ leadListings: [{ listingId: listing.id }], bedrooms: 2, propertyTypes: ["apartment"] });
    const listingEvents = await db
      .select()
      .from(events)
      .where(and(eq(events.entityId, listing.id), eq(events.eventName, "listing.attribution.tracked")));
    expect(listingEvents).toHaveLength(3);
  });

  it("replays a failed lead, keeping its dedupe key", async () => {
    const c = await channel(t);
    await post(c.pathToken, { name: "Falha", originLeadId: "fail-1" });
    const db = await getDb();
    const [lead] = await leadRows(c.id);
    await db.update(inboundLeads).set({ status: "failed", error: "simulated" }).where(eq(inboundLeads.id, lead.id));
    const res = await call(replayRoute.POST, "POST", "/x", { key: t.key, params: { id: c.id, leadId: lead.id } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "received", originLeadId: "fail-1", error: null });
    expect((await processLead(db, lead.id)).status).toBe("processed");
    expect((await call(replayRoute.POST, "POST", "/x", { key: t.key, params: { id: c.id, leadId: lead.id } })).status).toBe(409);
  });
});

describe("characters PostgreSQL cannot store", () => {
  it("cleans a NUL or lone surrogate in any field instead of refusing the lead (it used to be a 500 or a 400), and keeps the raw body", async () => {
    const c = await channel(t);
    const raw =
      '{"contactName":"Ana\\u0000 Lima","email":"ana@example.com","originLeadId":"o\\ud800-1","address":{"street":"Rua \\ud800"},"price":"\\ud800","visitDate":"\\u0000"}';
    const res = await post(c.pathToken, null, { raw });
    expect(res).toEqual({ status: 202, body: { ok: true, accepted: true } });
    const [stored] = await leadRows(c.id);
    expect(stored.rawBody).toBe(raw);
    // A dedupe key is kept distinct (its JSON literal), not cleaned: o\ud800 and o\ud801 stay two leads.
    expect(stored.originLeadId).toBe('"o\\ud800-1"');
    const second = await post(c.pathToken, null, { raw: raw.replace("o\\ud800-1", "o\\ud801-1") });
    expect(second).toEqual({ status: 202, body: { ok: true, accepted: true } });
    expect((await leadRows(c.id)).map((r) => r.originLeadId).sort()).toEqual(['"o\\ud800-1"', '"o\\ud801-1"']);
    expect(stored.lead).toMatchObject({ contactName: "Ana Lima", contactEmail: "ana@example.com" });
    expect((await processLead(await getDb(), stored.id)).status).toBe("processed");
    expect((await dealsOf(c.id))[0].title).toContain("Ana Lima");
  });

  it("cuts a long name without leaving half an emoji behind (a lone surrogate PostgreSQL refuses)", async () => {
    const c = await channel(t);
    const res = await post(c.pathToken, { contactName: `${"a".repeat(119)}😀 Silva`, email: "emoji@example.com" });
    expect(res.status).toBe(202);
    const [stored] = await leadRows(c.id);
    expect((stored.lead as any).contactName).toBe(`${"a".repeat(119)}\uFFFD`);
  });
});

describe("the sweep (process-leads-cron, no event)", () => {
  it("processes a lead left received and a lead whose worker died mid-processing, once each", async () => {
    const c = await channel(t);
    expect((await post(c.pathToken, { contactName: "Left Behind", phone: "11 98888-0001", originLeadId: "sweep-1" })).status).toBe(202);
    expect((await post(c.pathToken, { contactName: "Dead Worker", phone: "11 98888-0002", originLeadId: "sweep-2" })).status).toBe(202);
    const db = await getDb();
    // A worker claimed the second lead long ago and died: its claim is stale.
    await db
      .update(inboundLeads)
      .set({ status: "processing", claimedAt: sql`now() - interval '1 hour'` })
      .where(and(eq(inboundLeads.channelId, c.id), eq(inboundLeads.originLeadId, "sweep-2")));
    const cron = functions.find((f) => f.id() === "process-leads-cron");
    expect(cron, "process-leads-cron is served").toBeDefined();
    const { result, error } = await new InngestTestEngine({ function: cron! }).execute();
    expect(error).toBeUndefined();
    expect((result as { processed: number }).processed).toBeGreaterThanOrEqual(2);
    expect((await leadRows(c.id)).map((l) => l.status)).toEqual(["processed", "processed"]);
    expect(await dealsOf(c.id)).toHaveLength(2);
  });
});

describe("visits and the listing's broker", () => {
  it("creates a visit task for the deal's broker at the requested São Paulo time", async () => {
    const c = await channel(t);
    const res = await post(
      c.pathToken,
      { name: "Vera", phone: "11 94444-3333", visitDate: "2026-12-05", visitTime: "14:30", visitNotes: "Portaria" },
      { query: "?sync=assignment" },
    );
    expect(res.status).toBe(200);
    const db = await getDb();
    const [task] = await db.select().from(tasks).where(eq(tasks.dealId, res.body.dealId));
    expect(task).toMatchObject({ type: "visit", status: "open", assigneeId: res.body.assignedToId, notes: "Portaria" });
    expect(task.dueAt?.toISOString()).toBe("2026-12-05T17:30:00.000Z");
    expect((await db.select().from(events).where(eq(events.entityId, task.id))).map((e) => e.eventName)).toEqual(["task.created"]);
    const junk = await post(c.pathToken, { name: "Vera 2", phone: "11 94444-3332", visitDate: "amanhã", visitTime: "14:30" }, { query: "?sync=true" });
    expect(await db.select().from(tasks).where(eq(tasks.dealId, junk.body.dealId))).toHaveLength(0);
  });

  it("gives a lead about a listing to the listing's broker when the tenant prefers it", async () => {
    const captador = await makeMember(t, "broker");
    const prop = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody({ assignedToId: captador.userId }) });
    const c = await channel(t);
    const before = await post(c.pathToken, { name: "Lia", email: "lia@example.com", listingId: prop.body.listings[0].id }, { query: "?sync=assignment" });
    expect(before.body.assignedToId).not.toBe(captador.userId); // round robin while the setting is off
    expect((await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { leadDistribution: { preferListingBroker: true } } })).status).toBe(200);
    const after = await post(c.pathToken, { name: "Lia 2", email: "lia2@example.com", listingId: prop.body.listings[0].id }, { query: "?sync=assignment" });
    expect(after.body.assignedToId).toBe(captador.userId);
    const log = await call(leadsRoute.GET, "GET", "/x", { key: t.key, params: { id: c.id } });
    expect(log.body.items[0].decision.join(" ")).toContain("captador first");
    await call(settingsRoute.PATCH, "PATCH", "/x", { key: t.key, body: { leadDistribution: { preferListingBroker: false } } });
  });
});
