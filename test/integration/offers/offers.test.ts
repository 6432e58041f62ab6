import { asc, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as verbRoute from "../../../app/api/v1/crm/offers/[id]/[verb]/route";
import * as offerRoute from "../../../app/api/v1/crm/offers/[id]/route";
import * as offersRoute from "../../../app/api/v1/crm/offers/route";
import * as syncRoute from "../../../app/api/v1/crm/offers/sync/route";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { dealDocuments, events, offers } from "../../../db/schema";
import { makeMember, makeTenant, propertyBody, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";

let t: TestTenant;
let other: TestTenant;
let broker: Awaited<ReturnType<typeof makeMember>>;
let dealId: string;
let rentalDealId: string;
let listingId: string;

const COMMON = ["offerId", "dealId", "listingId", "brokerId", "amount", "currency", "dealType", "source", "occurredAt"];

const create = (body: Record<string, unknown>, key = t.key) =>
  call(offersRoute.POST, "POST", "/api/v1/crm/offers", { key, body: { dealId, amount: "900000", ...body } });
const act = (id: string, verb: string, body?: unknown, key = t.key) =>
  call(verbRoute.POST, "POST", `/api/v1/crm/offers/${id}/${verb}`, { key, params: { id, verb }, body });
const get = (id: string, key = t.key) => call(offerRoute.GET, "GET", "/x", { key, params: { id } });
const sync = (body: Record<string, unknown>) => call(syncRoute.POST, "POST", "/x", { key: t.key, body: { dealId, amount: "500000", ...body } });
const offerEvents = async (ids: string[]) => {
  const db = await getDb();
  return db.select().from(events).where(inArray(events.entityId, ids)).orderBy(asc(events.seq));
};
/** The single event the last action wrote for the offer. */
const lastEvent = async (id: string) => (await offerEvents([id])).at(-1)!;

beforeAll(async () => {
  t = await makeTenant();
  other = await makeTenant();
  broker = await makeMember(t, "broker", "restricted");
  dealId = (
    await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { title: "Compra", dealType: "sale", contacts: [{ name: "Ana", email: "ana@example.com", role: "buyer" }], assignedToId: broker.userId },
    })
  ).body.id;
  rentalDealId = (
    await call(dealsRoute.POST, "POST", "/x", {
      key: t.key,
      body: { title: "Aluguel", dealType: "rental", contacts: [{ name: "Bia", email: "bia@example.com", role: "tenant" }] },
    })
  ).body.id;
  listingId = (await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody() })).body.listings[0].id;
});

/** Checks the envelope parts and `data.data` field by field against spec 2 §6 for one offer event. */
function expectOfferEvent(ev: any, name: string, offer: any, extra: Record<string, unknown>, userId: string | null = t.ownerId) {
  expect(ev.eventName).toBe(name);
  expect(ev.entityType).toBe("offer");
  expect(ev.entityId).toBe(offer.id);
  expect(ev.userId).toBe(userId);
  const keys = offer.listingId ? COMMON : COMMON.filter((k) => k !== "listingId");
  expect(Object.keys(ev.data).sort()).toEqual([...keys, ...Object.keys(extra)].sort());
  expect(ev.data.offerId).toBe(offer.id);
  expect(ev.data.dealId).toBe(offer.dealId);
  if (offer.listingId) expect(ev.data.listingId).toBe(offer.listingId);
  expect(ev.data.brokerId).toBe(offer.brokerId);
  expect(ev.data.amount).toBe(Number(offer.amount));
  expect(typeof ev.data.amount).toBe("number");
  expect(ev.data.currency).toBe("BRL");
  expect(ev.data.dealType).toBe(offer.dealType);
  expect(ev.data.source).toBe(offer.source);
  expect(new Date(ev.data.occurredAt).toISOString()).toBe(ev.data.occurredAt);
  for (const [k, v] of Object.entries(extra)) expect(ev.data[k]).toEqual(v);
}

describe("offer state machine and events", () => {
  it("create → send → client-confirm → client-sign → accept: one event per step with §6's fields", async () => {
    const c = await create({ listingId });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      status: "draft",
      amount: "900000.00",
      currency: "BRL",
      dealType: "sale",
      source: "crm",
      brokerId: broker.userId,
      listingId,
    });
    const id = c.body.id;
    expectOfferEvent(await lastEvent(id), "offer.created", c.body, {});

    const s = await act(id, "send", { document: { name: "Proposta.pdf", url: "https://files.example.com/p.pdf" } });
    expect(s.status).toBe(200);
    expect(s.body.status).toBe("sent_to_client");
    const db = await getDb();
    const [doc] = await db.select().from(dealDocuments).where(eq(dealDocuments.id, s.body.documentId));
    expect(doc).toMatchObject({ dealId, kind: "offer_pdf", name: "Proposta.pdf", url: "https://files.example.com/p.pdf" });
    expectOfferEvent(await lastEvent(id), "offer.sent_to_client", s.body, { documentId: doc.id });

    const cc = await act(id, "client-confirm");
    expect(cc.body.status).toBe("client_confirmed");
    expectOfferEvent(await lastEvent(id), "offer.client_confirmed", cc.body, { documentId: doc.id });
    const cs = await act(id, "client-sign", {});
    expect(cs.body.status).toBe("client_signed");
    expectOfferEvent(await lastEvent(id), "offer.client_signed", cs.body, { documentId: doc.id });
    const a = await act(id, "accept");
    expect(a.body.status).toBe("accepted");
    expectOfferEvent(await lastEvent(id), "offer.accepted", a.body, { transactionId: expect.any(String) });
    expect((await offerEvents([id])).map((e) => e.eventName)).toEqual([
      "offer.created",
      "offer.sent_to_client",
      "offer.client_confirmed",
      "offer.client_signed",
      "offer.accepted",
    ]);
  });

  it("documentId is null in the document events when no PDF was given; listingId is absent without a listing", async () => {
    const c = await create({ dealId: rentalDealId, amount: "4500" });
    expect(c.body.dealType).toBe("rental");
    expect(c.body.brokerId).toBe(t.ownerId);
    const s = await act(c.body.id, "send");
    expectOfferEvent(await lastEvent(c.body.id), "offer.sent_to_client", s.body, { documentId: null });
    expect((await lastEvent(c.body.id)).data).not.toHaveProperty("listingId");
  });

  it("counter creates the counter-offer (a new draft answering this one) and writes only offer.countered", async () => {
    const c = await create({ listingId });
    await act(c.body.id, "send");
    const before = (await getDb()).select().from(events);
    const n = (await before).length;
    const r = await act(c.body.id, "counter", { amount: "950000.50", notes: "Contraproposta do proprietário" });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("countered");
    const counter = await get(r.body.counterOfferId);
    expect(counter.body).toMatchObject({ status: "draft", amount: "950000.50", counteredOfferId: c.body.id, dealId, listingId, brokerId: c.body.brokerId });
    const all = await (await getDb()).select().from(events);
    expect(all.length - n).toBe(1);
    expectOfferEvent(await lastEvent(c.body.id), "offer.countered", r.body, { counterOfferId: counter.body.id });
    expect(await offerEvents([counter.body.id])).toHaveLength(0);
    // The counter-offer goes its own way.
    expect((await act(counter.body.id, "send")).body.status).toBe("sent_to_client");
  });

  it("reject and withdraw take a declineCode; expire takes nothing", async () => {
    const a = await create({});
    await act(a.body.id, "send");
    expect((await act(a.body.id, "reject")).status).toBe(400);
    expect((await act(a.body.id, "reject", { declineCode: "too_low" })).status).toBe(400);
    const r = await act(a.body.id, "reject", { declineCode: "financing" });
    expect(r.body).toMatchObject({ status: "rejected", declineCode: "financing" });
    expectOfferEvent(await lastEvent(a.body.id), "offer.rejected", r.body, { declineCode: "financing" });

    const b = await create({});
    const w = await act(b.body.id, "withdraw", { declineCode: "client_gave_up" });
    expect(w.body.status).toBe("withdrawn");
    expectOfferEvent(await lastEvent(b.body.id), "offer.withdrawn", w.body, { declineCode: "client_gave_up" });

    const c = await create({});
    await act(c.body.id, "send");
    expect((await act(c.body.id, "expire", { declineCode: "other" })).status).toBe(400);
    const e = await act(c.body.id, "expire");
    expect(e.body.status).toBe("expired");
    expectOfferEvent(await lastEvent(c.body.id), "offer.expired", e.body, {});
  });

  it("an invalid transition is a 409 naming the current state, and writes nothing", async () => {
    const c = await create({});
    const n = (await offerEvents([c.body.id])).length;
    for (const verb of ["accept", "client-confirm", "client-sign", "counter", "reject"]) {
      const res = await act(c.body.id, verb, verb === "reject" ? { declineCode: "price" } : verb === "counter" ? { amount: "1" } : undefined);
      expect(res.status, verb).toBe(409);
      expect(res.body.error.code).toBe("invalid_transition");
      expect(res.body.error.message).toContain("is draft");
    }
    await act(c.body.id, "withdraw", { declineCode: "other" });
    const again = await act(c.body.id, "send");
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain("is withdrawn");
    expect((await offerEvents([c.body.id])).length).toBe(n + 1);
    expect((await act(c.body.id, "approve")).status).toBe(404);
  });

  it("two concurrent accepts: one wins, the other is a 409, one offer.accepted", async () => {
    const c = await create({});
    await act(c.body.id, "send");
    const results = await Promise.all([act(c.body.id, "accept"), act(c.body.id, "reject", { declineCode: "price" })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const evs = (await offerEvents([c.body.id])).filter((e) => e.eventName === "offer.accepted" || e.eventName === "offer.rejected");
    expect(evs).toHaveLength(1);
  });

  it("validates create input and scopes everything to the tenant", async () => {
    expect((await create({ amount: "0" })).status).toBe(400);
    expect((await create({ amount: "abc" })).status).toBe(400);
    expect((await create({ dealId: "00000000-0000-4000-8000-000000000000" })).status).toBe(400);
    expect((await create({ source: "provider_sync" })).status).toBe(400);
    expect((await create({ listingId: "00000000-0000-4000-8000-000000000000" })).status).toBe(400);
    const c = await create({});
    expect((await get(c.body.id, other.key)).status).toBe(404);
    expect((await act(c.body.id, "send", undefined, other.key)).status).toBe(404);
    expect((await call(offersRoute.GET, "GET", "/x", { key: other.key })).body.total).toBe(0);
    expect((await create({}, other.key)).status).toBe(400);
    const list = await call(offersRoute.GET, "GET", "/x", { key: t.key, query: { dealId: rentalDealId } });
    expect(list.body.items.every((o: any) => o.dealId === rentalDealId)).toBe(true);
    const byListing = await call(offersRoute.GET, "GET", "/x", { key: t.key, query: { listingId } });
    expect(byListing.body.items.length).toBeGreaterThan(0);
    expect(byListing.body.items.every((o: any) => o.listingId === listingId)).toBe(true);
    // The restricted broker of the sale deal sees its offers but not the rental deal's.
    const mine = await call(offersRoute.GET, "GET", "/x", { key: broker.key });
    expect(mine.body.items.every((o: any) => o.dealId === dealId)).toBe(true);
  });
});

describe("imported offers (provider_sync)", () => {
  const daysAgo = (d: number) => new Date(Date.now() - d * 24 * 3600 * 1000).toISOString();

  it("emits offer.created on arrival and offer.accepted on the origin's change, with source provider_sync", async () => {
    const a = await sync({ externalId: "portal-1", status: "open", movedAt: daysAgo(1) });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      created: true,
      event: "offer.created",
      offer: { source: "provider_sync", status: "sent_to_client", externalId: "portal-1" },
    });
    const ev = await lastEvent(a.body.offer.id);
    expectOfferEvent(ev, "offer.created", a.body.offer, {});
    expect(ev.data.occurredAt).toBe(a.body.offer.lastMovementAt);
    const b = await sync({ externalId: "portal-1", status: "accepted", movedAt: daysAgo(0.5) });
    expect(b.status).toBe(200);
    expect(b.body.offer.status).toBe("accepted");
    expectOfferEvent(await lastEvent(a.body.offer.id), "offer.accepted", b.body.offer, {});
    // The same report again, or an older one arriving late: nothing.
    await sync({ externalId: "portal-1", status: "accepted", movedAt: daysAgo(0.5) });
    await sync({ externalId: "portal-1", status: "open", movedAt: daysAgo(0.8) });
    expect((await offerEvents([a.body.offer.id])).map((e) => e.eventName)).toEqual(["offer.created", "offer.accepted"]);
    expect((await get(a.body.offer.id)).body.status).toBe("accepted");
  });

  it("a cancellation at the origin is offer.rejected with declineCode cancelled; a final status is never reopened", async () => {
    const a = await sync({ externalId: "portal-2", status: "open", movedAt: daysAgo(2) });
    const b = await sync({ externalId: "portal-2", status: "cancelled", movedAt: daysAgo(1) });
    expectOfferEvent(await lastEvent(a.body.offer.id), "offer.rejected", b.body.offer, { declineCode: "cancelled" });
    const c = await sync({ externalId: "portal-2", status: "accepted", movedAt: daysAgo(0.1) });
    expect(c.body.offer.status).toBe("rejected");
    expect((await offerEvents([a.body.offer.id])).length).toBe(2);
  });

  it("old history (no movement in the last 7 days) is stored but emits nothing", async () => {
    const a = await sync({ externalId: "portal-old", status: "open", movedAt: daysAgo(30) });
    expect(a.body).toMatchObject({ created: true, event: null });
    const b = await sync({ externalId: "portal-old", status: "rejected", declineCode: "price", movedAt: daysAgo(20) });
    expect(b.body.offer).toMatchObject({ status: "rejected", declineCode: "price" });
    expect(await offerEvents([a.body.offer.id])).toHaveLength(0);
    // Arriving already accepted but recent: offer.created only.
    const c = await sync({ externalId: "portal-3", status: "accepted", movedAt: daysAgo(3) });
    expect((await offerEvents([c.body.offer.id])).map((e) => e.eventName)).toEqual(["offer.created"]);
    const db = await getDb();
    expect((await db.select().from(offers).where(eq(offers.externalId, "portal-old"))).length).toBe(1);
  });

  it("needs an admin key", async () => {
    const res = await call(syncRoute.POST, "POST", "/x", {
      key: broker.key,
      body: { externalId: "x", dealId, amount: "1", status: "open", movedAt: daysAgo(1) },
    });
    expect(res.status).toBe(403);
  });
});
