/**
 * The automatic first contact: a channel's `firstContact` setting sends a new lead a first message
 * through the same send path as a member (fake WAHA gateway), unless a guard stops it; a stop
 * emits `first_contact.skipped` with exactly `reason`, `destination` and `matched` (ids only).
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as webhookRoute from "../../../app/api/webhooks/channels/[pathToken]/route";
import * as channelRoute from "../../../app/api/v1/settings/marketing-channels/[id]/route";
import * as channelsRoute from "../../../app/api/v1/settings/marketing-channels/route";
import * as optOutsRoute from "../../../app/api/v1/settings/messaging/opt-outs/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { deals, events, firstContactRequests, inboundLeads, members } from "../../../db/schema";
import { processFirstContacts } from "../../../lib/leads/first-contact/process";
import { processLead } from "../../../lib/leads/inbound/process-lead";
import type { FakeWaha } from "../../fakes/waha-gateway";
import { makeMember, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call, send } from "../../helpers/http";
import { makeWahaChannel, messagingCast, type TestChannel } from "../../helpers/messaging";

let gw: FakeWaha;
let t: TestTenant;
let other: TestTenant;
let wa: TestChannel;
let broker: { userId: string; key: string };
let portal: { id: string; pathToken: string };
let listing: { id: string; listingCode: string; title: string };

const TEXT = "Olá {{name}}! Vi seu interesse em {{listing}}. Posso ajudar?";
const fcBody = (over: Record<string, unknown> = {}) => ({
  enabled: true,
  messagingChannelId: wa.id,
  text: TEXT,
  delaySeconds: 0,
  destinations: { open_deal: "other_queue" },
  ...over,
});

async function postLead(body: Record<string, unknown>) {
  const req = new Request(`http://localhost/api/webhooks/channels/${portal.pathToken}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const res = await send(webhookRoute.POST, req, { pathToken: portal.pathToken });
  expect(res.status).toBe(202);
  const db = await getDb();
  const rows = await db.select().from(inboundLeads).where(eq(inboundLeads.channelId, portal.id));
  const lead = rows.find((r) => (r.lead as any).originLeadId === body.originLeadId)!;
  expect((await processLead(db, lead.id)).status).toBe("processed");
  const [done] = await db.select().from(inboundLeads).where(eq(inboundLeads.id, lead.id));
  return done;
}

const request = async (leadId: string) => (await (await getDb()).select().from(firstContactRequests).where(eq(firstContactRequests.leadId, leadId)))[0];
const skippedEvents = async (dealId: string) =>
  (await getDb())
    .select()
    .from(events)
    .where(and(eq(events.entityId, dealId), eq(events.eventName, "first_contact.skipped")));
const run = async () => processFirstContacts(await getDb(), 50);
let n = 0;
const lead = (phone: string, over: Record<string, unknown> = {}) => ({
  contactName: "Maria Souza",
  phone,
  listingId: listing.listingCode,
  originLeadId: `fc-${++n}`,
  ...over,
});

beforeAll(async () => {
  const cast = await messagingCast();
  ({ gw, t, other } = cast);
  broker = cast.ana;
  wa = await makeWahaChannel(t, gw, { ownerId: t.ownerId });
  const ch = await call(channelsRoute.POST, "POST", "/x", {
    key: t.key,
    body: { name: "Portal", kind: "portal", queue: [broker.userId], firstContact: fcBody() },
  });
  expect(ch.status, JSON.stringify(ch.body)).toBe(201);
  portal = ch.body;
  const prop = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: propertyBody({ owner: { name: "Seu Jorge", phone: "11 91111-2222" } }, [saleListing({ title: "Apartamento 3 dormitórios nos Jardins" })]),
  });
  expect(prop.status).toBe(201);
  listing = prop.body.listings[0];
}, 60_000);

afterAll(async () => {
  await gw.close();
});
afterEach(() => {
  gw.state.switches = { delayMs: 0, hang: false, failStatus: 0, emptyHistory: false, failTimes: 0 };
});

describe("firstContact setting", () => {
  it("is shown with its defaults and the member who saved it", async () => {
    const res = await call(channelsRoute.GET, "GET", "/x", { key: t.key });
    const mine = res.body.items.find((c: any) => c.id === portal.id);
    expect(mine.firstContact).toEqual({
      enabled: true,
      messagingChannelId: wa.id,
      text: TEXT,
      delaySeconds: 0,
      destinations: { opt_out: "hold", listing_owner: "keep_with_broker", won_deal: "keep_with_broker", open_deal: "other_queue", guard_error: "hold" },
      configuredById: t.ownerId,
    });
  });

  it("answers 400 naming the field for a bad setting, and changes nothing", async () => {
    const theirs = await makeWahaChannel(other, gw, { ownerId: other.ownerId });
    const brokersOwn = await makeWahaChannel(t, gw, { ownerId: broker.userId, name: "WhatsApp do corretor" });
    const cases: [unknown, RegExp][] = [
      [fcBody({ templateId: "8f14e45f-ceea-4e7a-9b1d-000000000001" }), /exactly one of `text` or `templateId`/],
      [fcBody({ text: undefined }), /exactly one/],
      [fcBody({ messagingChannelId: theirs.id }), /firstContact\.messagingChannelId/],
      [fcBody({ messagingChannelId: brokersOwn.id }), /firstContact\.messagingChannelId.*grant/],
      [fcBody({ text: undefined, templateId: "8f14e45f-ceea-4e7a-9b1d-000000000001" }), /firstContact\.templateId/],
      [fcBody({ delaySeconds: -1 }), /delaySeconds/],
      [fcBody({ destinations: { open_deal: "elsewhere" } }), /destinations\.open_deal/],
      [fcBody({ destinations: { sleepy: "hold" } }), /sleepy/],
    ];
    for (const [firstContact, msg] of cases) {
      const res = await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: portal.id }, body: { firstContact } });
      expect(res.status, JSON.stringify(firstContact)).toBe(400);
      expect(res.body.error.message).toMatch(msg);
    }
    const after = await call(channelsRoute.GET, "GET", "/x", { key: t.key });
    expect(after.body.items.find((c: any) => c.id === portal.id).firstContact.messagingChannelId).toBe(wa.id);
  });
});

describe("automatic first contact", () => {
  it("sends the new lead a first message with its name and listing, through the member send path", async () => {
    const sentBefore = gw.state.sent.length;
    const row = await postLead(lead("(11) 97654-3210"));
    expect(row.decision.join(" ")).toMatch(/automatic first contact queued/);
    expect(await request(row.id)).toMatchObject({ status: "pending", dealId: row.dealIds[0] });
    const r = await run();
    expect(r.outcomes).toEqual(["sent"]);
    expect(gw.state.sent.slice(sentBefore)).toEqual([
      { chatId: "5511976543210@c.us", text: "Olá Maria! Vi seu interesse em Apartamento 3 dormitórios nos Jardins. Posso ajudar?" },
    ]);
    const req = await request(row.id);
    expect(req).toMatchObject({ status: "sent", outcome: "sent" });
    expect(req.messageId).toBeTruthy();
    const db = await getDb();
    const sent = await db
      .select()
      .from(events)
      .where(and(eq(events.entityId, req.messageId!), eq(events.eventName, "channel.message.sent")));
    expect(sent).toHaveLength(1);
    expect(await skippedEvents(row.dealIds[0])).toHaveLength(0);
    // Running again sends nothing more.
    expect((await run()).claimed).toBe(0);
    expect(gw.state.sent.length).toBe(sentBefore + 1);
  });

  it("stops at an open deal with a broker: first_contact.skipped with the channel's destination and the matched ids only", async () => {
    const phone = "(11) 96543-2109";
    const first = await postLead(lead(phone));
    await run();
    const sentBefore = gw.state.sent.length;
    const again = await postLead(lead(phone));
    expect((await run()).outcomes).toEqual(["skipped"]);
    expect(gw.state.sent.length).toBe(sentBefore);
    const [ev] = await skippedEvents(again.dealIds[0]);
    expect(ev).toMatchObject({ entityType: "deal", entityId: again.dealIds[0], userId: null });
    expect(ev.data).toEqual({
      reason: "open_deal",
      destination: "other_queue",
      matched: { dealIds: [first.dealIds[0]], listingIds: [], contactIds: [expect.any(String)] },
    });
    expect(JSON.stringify(ev.data)).not.toMatch(/6543|2109/);
    expect(await request(again.id)).toMatchObject({ status: "skipped", outcome: "open_deal" });
  });

  it("stops at an opted-out phone (hold)", async () => {
    const add = await call(optOutsRoute.POST, "POST", "/x", { key: t.key, body: { phone: "11 95432-1098" } });
    expect(add.status).toBeLessThan(300);
    const row = await postLead(lead("11 95432-1098"));
    const sentBefore = gw.state.sent.length;
    await run();
    expect(gw.state.sent.length).toBe(sentBefore);
    const [ev] = await skippedEvents(row.dealIds[0]);
    expect(ev.data).toEqual({ reason: "opt_out", destination: "hold", matched: { dealIds: [], listingIds: [], contactIds: [expect.any(String)] } });
  });

  it("stops when the lead is the listing's owner", async () => {
    const row = await postLead(lead("11 91111-2222", { contactName: "Jorge" }));
    await run();
    const [ev] = await skippedEvents(row.dealIds[0]);
    expect(ev.data).toEqual({ reason: "listing_owner", destination: "keep_with_broker", matched: { dealIds: [], listingIds: [listing.id], contactIds: [] } });
  });

  it("stops when the person already has a won deal", async () => {
    const phone = "11 94321-0987";
    const first = await postLead(lead(phone));
    await run();
    await (await getDb()).update(deals).set({ status: "won" }).where(eq(deals.id, first.dealIds[0]));
    const again = await postLead(lead(phone));
    await run();
    const [ev] = await skippedEvents(again.dealIds[0]);
    expect(ev.data).toMatchObject({ reason: "won_deal", destination: "keep_with_broker", matched: { dealIds: [first.dealIds[0]] } });
  });

  it("sends nothing when a check cannot pass (guard_error): the member who configured it left", async () => {
    const admin = await makeMember(t, "admin");
    const wa2 = await makeWahaChannel(t, gw, { ownerId: admin.userId, name: "WhatsApp admin" });
    const ch = await call(channelsRoute.POST, "POST", "/x", {
      key: admin.key,
      body: { name: "Portal 2", kind: "portal", queue: [broker.userId], firstContact: fcBody({ messagingChannelId: wa2.id }) },
    });
    expect(ch.status).toBe(201);
    const saved = portal;
    portal = ch.body;
    try {
      const db = await getDb();
      await db.update(members).set({ active: false }).where(eq(members.id, admin.userId));
      const sentBefore = gw.state.sent.length;
      const row = await postLead(lead("11 93210-9876"));
      await run();
      expect(gw.state.sent.length).toBe(sentBefore);
      const [ev] = await skippedEvents(row.dealIds[0]);
      expect(ev.data).toEqual({ reason: "guard_error", destination: "hold", matched: { dealIds: [], listingIds: [], contactIds: [] } });
    } finally {
      portal = saved;
    }
  });

  it("retries a gateway that cannot be reached, then reports guard_error", async () => {
    gw.state.switches.failStatus = 500;
    const row = await postLead(lead("11 92109-8765"));
    const db = await getDb();
    const due = () =>
      db
        .update(firstContactRequests)
        .set({ sendAt: new Date(0) })
        .where(eq(firstContactRequests.leadId, row.id));
    expect((await run()).outcomes).toEqual(["retry"]);
    expect(await request(row.id)).toMatchObject({ status: "pending", attempts: 1 });
    await due();
    expect((await run()).outcomes).toEqual(["retry"]);
    await due();
    expect((await run()).outcomes).toEqual(["failed"]);
    const [ev] = await skippedEvents(row.dealIds[0]);
    expect(ev.data).toMatchObject({ reason: "guard_error", destination: "hold" });
  });

  it("waits delaySeconds, and queues nothing when the setting is off", async () => {
    const upd = await call(channelRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { id: portal.id },
      body: { firstContact: fcBody({ delaySeconds: 3600 }) },
    });
    expect(upd.status).toBe(200);
    const row = await postLead(lead("11 98765-0001"));
    const req = await request(row.id);
    expect(req.sendAt.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    expect((await run()).claimed).toBe(0);

    await call(channelRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: portal.id }, body: { firstContact: null } });
    const none = await postLead(lead("11 98765-0002"));
    expect(await request(none.id)).toBeUndefined();
    // A request queued before the setting went off is cancelled when due.
    await (await getDb())
      .update(firstContactRequests)
      .set({ sendAt: new Date(0) })
      .where(eq(firstContactRequests.leadId, row.id));
    expect((await run()).outcomes).toEqual(["cancelled"]);
  });
});
