/**
 * Visit booking end to end on a real database: availability (validation, who may set it), the free
 * slots of a listing (its broker's, the queue's, minus booked visits), a booking (task, deal,
 * `task.created`, WhatsApp confirmation through the fake gateway), one winner among 20 concurrent
 * bookings of a slot, a cancelled or moved task freeing the slot, and tenant isolation.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as bookRoute from "../../../app/api/sites/[siteId]/listings/[listingId]/visits/route";
import * as slotsRoute from "../../../app/api/sites/[siteId]/listings/[listingId]/visit-slots/route";
import { randomUUID } from "node:crypto";
import * as favouritesRoute from "../../../app/api/sites/[siteId]/visitors/[visitorId]/favourites/route";
import * as availabilityRoute from "../../../app/api/v1/members/[id]/availability/route";
import * as dealRoute from "../../../app/api/v1/crm/deals/[id]/route";
import * as taskRoute from "../../../app/api/v1/crm/tasks/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { events, tasks } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import type { FakeWaha } from "../../fakes/waha-gateway";
import { startFakeWaha } from "../../fakes/waha-gateway";
import { makeMember, makeTenant, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeWahaChannel } from "../../helpers/messaging";
import { makeSite } from "../../helpers/sites";

let ip = 0;
const from = () => ({ [CLIENT_ADDRESS_HEADER]: `10.37.${Math.floor(++ip / 250)}.${ip % 250}` });

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: "08:00", end: "20:00" }));
const availability = (over: Record<string, unknown> = {}) => ({ timezone: "America/Sao_Paulo", weekly: EVERY_DAY, exceptions: [], slotMinutes: 60, ...over });

let a: TestTenant;
let b: TestTenant;
let gw: FakeWaha;
let siteA: { id: string };
let siteB: { id: string };
let listingA: string;
let listingB: string;

async function makeListing(t: TestTenant): Promise<string> {
  const res = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody({}, [saleListing({ stage: "active", visibility: "public" })]) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.listings[0].id;
}

const putAvailability = (key: string, memberId: string, body: unknown) =>
  call(availabilityRoute.PUT, "PUT", `/api/v1/members/${memberId}/availability`, { key, params: { id: memberId }, body });
const slots = (site: { id: string }, listingId: string, query: Record<string, string> = {}) =>
  call(slotsRoute.GET, "GET", "/x", { params: { siteId: site.id, listingId }, query, headers: from() });
const book = (site: { id: string }, listingId: string, body: unknown) =>
  call(bookRoute.POST, "POST", "/x", { params: { siteId: site.id, listingId }, body, headers: from() });
const visitor = (start: string, phone = "+5511987650001") => ({ start, contact: { name: "Paula Souza", phone }, consent: true });

beforeAll(async () => {
  gw = await startFakeWaha();
  a = await makeTenant("Imobiliária das Visitas");
  b = await makeTenant("Outra Imobiliária");
  listingA = await makeListing(a);
  listingB = await makeListing(b);
  siteA = await makeSite(a);
  siteB = await makeSite(b);
  // The listing's broker is its creator, the owner; its WhatsApp channel sends the confirmation.
  await makeWahaChannel(a, gw);
});
afterAll(async () => gw?.close());

describe("PUT/GET /api/v1/members/{id}/availability", () => {
  it("lets a member set its own, an owner anyone's, and refuses a broker another's (403)", async () => {
    const broker = await makeMember(a, "broker", "restricted");
    const other = await makeMember(a, "broker");
    expect((await putAvailability(broker.key, broker.userId, availability())).status).toBe(200);
    expect((await putAvailability(a.key, other.userId, availability())).status).toBe(200);
    const refused = await putAvailability(broker.key, other.userId, availability());
    expect(refused.status).toBe(403);
    const read = await call(availabilityRoute.GET, "GET", "/x", { key: broker.key, params: { id: other.userId } });
    expect(read.status).toBe(403);
    const manager = await makeMember(a, "manager");
    expect((await putAvailability(manager.key, other.userId, availability())).status).toBe(403);
  });

  it("answers 400 naming the field for a bad zone, time, overlap or slot length, and stores nothing", async () => {
    const m = await makeMember(a, "broker");
    for (const [body, field] of [
      [availability({ timezone: "America/Nowhere" }), "timezone"],
      [availability({ weekly: [{ weekday: 1, start: "25:00", end: "26:00" }] }), "weekly.0.start"],
      [
        availability({
          weekly: [
            { weekday: 1, start: "09:00", end: "12:00" },
            { weekday: 1, start: "11:00", end: "13:00" },
          ],
        }),
        "weekly.1",
      ],
      [availability({ slotMinutes: 5 }), "slotMinutes"],
      [availability({ extra: 1 }), ""],
    ] as const) {
      const res = await putAvailability(m.key, m.userId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (field) expect(res.body.error.issues.map((i: any) => i.path)).toContain(field);
    }
    const read = await call(availabilityRoute.GET, "GET", "/x", { key: m.key, params: { id: m.userId } });
    expect(read.body).toMatchObject({ weekly: [], updatedAt: null });
  });

  it("404s another tenant's member", async () => {
    const res = await putAvailability(b.key, a.ownerId, availability());
    expect(res.status).toBe(404);
  });
});

describe("visit slots and booking", () => {
  it("offers the broker's slots, then books one: task, deal, task.created and a WhatsApp confirmation", async () => {
    expect((await putAvailability(a.key, a.ownerId, availability())).status).toBe(200);
    const res = await slots(siteA, listingA, { days: "3" });
    expect(res.status).toBe(200);
    expect(res.body.slots.length).toBeGreaterThan(10);
    expect(res.body.timezone).toBe("America/Sao_Paulo");
    const first = res.body.slots[0];
    expect(Date.parse(first.start)).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect(Date.parse(first.end) - Date.parse(first.start)).toBe(3_600_000);

    const booked = await book(siteA, listingA, visitor(first.start));
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body).toMatchObject({ start: first.start, end: first.end, listingId: listingA, broker: { name: "Dona Maria" }, confirmation: "whatsapp" });
    expect(gw.state.sent.at(-1)).toMatchObject({ chatId: "5511987650001@c.us" });
    expect(gw.state.sent.at(-1)!.text).toContain("Paula");

    const task = await call(taskRoute.GET, "GET", "/x", { key: a.key, params: { id: booked.body.id } });
    expect(task.body).toMatchObject({ type: "visit", status: "open", listingId: listingA, assigneeId: a.ownerId, dueAt: first.start });
    const deal = await call(dealRoute.GET, "GET", "/x", { key: a.key, params: { id: task.body.dealId } });
    expect(deal.status).toBe(200);
    expect(deal.body.assignedToId).toBe(a.ownerId);
    const db = await getDb();
    const evs = await db.select().from(events).where(eq(events.entityId, booked.body.id));
    expect(evs.map((e) => e.eventName)).toEqual(["task.created"]);

    // The slot is gone from the list; a second booking of it is 409 slot_taken.
    const after = await slots(siteA, listingA, { days: "3" });
    expect(after.body.slots.map((s: any) => s.start)).not.toContain(first.start);
    const again = await book(siteA, listingA, visitor(first.start, "+5511987650002"));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("slot_taken");

    // The same visitor booking another slot lands on the same open deal.
    const second = await book(siteA, listingA, visitor(after.body.slots[0].start));
    expect(second.status).toBe(201);
    const t2 = await call(taskRoute.GET, "GET", "/x", { key: a.key, params: { id: second.body.id } });
    expect(t2.body.dealId).toBe(task.body.dealId);
  });

  it("attaches the visitor's favourites to the deal when the booking carries its visitorId", async () => {
    const visitorId = randomUUID();
    const fav = await call(favouritesRoute.POST, "POST", "/x", { params: { siteId: siteA.id, visitorId }, body: { listingIds: [listingA] }, headers: from() });
    expect(fav.status, JSON.stringify(fav.body)).toBe(200);
    const open = await slots(siteA, listingA, { days: "3" });
    const booked = await book(siteA, listingA, { ...visitor(open.body.slots[1].start, "+5511987654999"), visitorId });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const task = await call(taskRoute.GET, "GET", "/x", { key: a.key, params: { id: booked.body.id } });
    const deal = await call(dealRoute.GET, "GET", "/x", { key: a.key, params: { id: task.body.dealId } });
    expect(deal.body.interests).toEqual([expect.objectContaining({ listingId: listingA, kind: "favourite" })]);
  });

  it("exactly one of 20 concurrent bookings of one slot wins; the rest are 409 slot_taken", async () => {
    const open = await slots(siteA, listingA, { days: "3" });
    const start = open.body.slots[3].start;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => book(siteA, listingA, visitor(start, `+55119876510${String(i).padStart(2, "0")}`))));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    const losers = answers.filter((r) => r.status !== 201);
    expect(losers.every((r) => r.status === 409 && r.body.error.code === "slot_taken")).toBe(true);
    const db = await getDb();
    const held = await db
      .select()
      .from(tasks)
      .where(and(eq(tasks.tenantId, a.tenantId), eq(tasks.dueAt, new Date(start))));
    expect(held).toHaveLength(1);
  });

  it("the database itself refuses a second open booked visit of one broker's slot", async () => {
    const db = await getDb();
    const at = new Date("2030-01-07T12:00:00Z");
    const row = { tenantId: a.tenantId, title: "x", type: "visit", assigneeId: a.ownerId, dueAt: at, bookedSlot: true };
    await db.insert(tasks).values(row);
    await expect(db.insert(tasks).values(row)).rejects.toThrow();
    // A cancelled one does not hold it.
    await db
      .update(tasks)
      .set({ status: "cancelled" })
      .where(and(eq(tasks.tenantId, a.tenantId), eq(tasks.dueAt, at)));
    await db.insert(tasks).values(row);
  });

  it("cancelling or moving the task frees the slot", async () => {
    const open = await slots(siteA, listingA, { days: "3" });
    const [s1, s2] = [open.body.slots[5].start, open.body.slots[6].start];
    const b1 = await book(siteA, listingA, visitor(s1, "+5511987652001"));
    const b2 = await book(siteA, listingA, visitor(s2, "+5511987652002"));
    expect([b1.status, b2.status]).toEqual([201, 201]);
    const cancel = await call(taskRoute.PATCH, "PATCH", "/x", { key: a.key, params: { id: b1.body.id }, body: { status: "cancelled" } });
    expect(cancel.status).toBe(200);
    const moved = await call(taskRoute.PATCH, "PATCH", "/x", { key: a.key, params: { id: b2.body.id }, body: { dueAt: "2030-02-01T12:00:00Z" } });
    expect(moved.status).toBe(200);
    const now = (await slots(siteA, listingA, { days: "3" })).body.slots.map((s: any) => s.start);
    expect(now).toContain(s1);
    expect(now).toContain(s2);
    expect((await book(siteA, listingA, visitor(s1, "+5511987652003"))).status).toBe(201);
  });

  it("moving a booked visit onto another booked one is a 409 slot_taken, not a 500", async () => {
    const open = await slots(siteA, listingA, { days: "3" });
    const [s1, s2] = [open.body.slots[8].start, open.body.slots[9].start];
    const b1 = await book(siteA, listingA, visitor(s1, "+5511987653001"));
    await book(siteA, listingA, visitor(s2, "+5511987653002"));
    const res = await call(taskRoute.PATCH, "PATCH", "/x", { key: a.key, params: { id: b1.body.id }, body: { dueAt: s2 } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("slot_taken");
  });

  it("honours exceptions: a closed date offers nothing", async () => {
    const today = new Date(Date.now() + 86_400_000 * 2).toISOString().slice(0, 10);
    await putAvailability(a.key, a.ownerId, availability({ exceptions: [{ date: today, available: false }] }));
    const res = await slots(siteA, listingA, { from: today, days: "1" });
    expect(res.body.slots).toEqual([]);
    await putAvailability(a.key, a.ownerId, availability());
  });

  it("uses the tenant's visit queue when the listing's broker published nothing", async () => {
    const res0 = await slots(siteB, listingB, { days: "2" });
    expect(res0.body.slots).toEqual([]);
    const queued = await makeMember(b, "broker");
    await putAvailability(
      b.key,
      queued.userId,
      availability({
        weekly: [{ weekday: 0, start: "10:00", end: "11:00" }, ...[1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: "10:00", end: "11:00" }))],
      }),
    );
    const res = await slots(siteB, listingB, { days: "3" });
    expect(res.body.slots.length).toBeGreaterThan(0);
    const booked = await book(siteB, listingB, visitor(res.body.slots[0].start));
    expect(booked.status).toBe(201);
    const task = await call(taskRoute.GET, "GET", "/x", { key: b.key, params: { id: booked.body.id } });
    expect(task.body.assigneeId).toBe(queued.userId);
  });

  it("keeps tenants apart: another tenant's listing is 404 on this site, its tasks invisible", async () => {
    expect((await slots(siteA, listingB)).status).toBe(404);
    const open = await slots(siteB, listingB, { days: "3" });
    expect((await book(siteA, listingB, visitor(open.body.slots[0].start))).status).toBe(404);
    const tA = await getDb().then((db) => db.select().from(tasks).where(eq(tasks.tenantId, a.tenantId)).orderBy(asc(tasks.createdAt)).limit(1));
    expect((await call(taskRoute.GET, "GET", "/x", { key: b.key, params: { id: tA[0].id } })).status).toBe(404);
  });

  it("answers 400 for a start that is no offered slot, a missing consent or a bad phone", async () => {
    const bad = await book(siteA, listingA, visitor("2026-01-01T03:17:00Z"));
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_slot");
    const open = await slots(siteA, listingA, { days: "3" });
    const noConsent = await book(siteA, listingA, { ...visitor(open.body.slots[0].start), consent: false });
    expect(noConsent.status).toBe(400);
    const badPhone = await book(siteA, listingA, visitor(open.body.slots[0].start, "123"));
    expect(badPhone.status).toBe(400);
    expect((await slots(siteA, listingA, { days: "99" })).status).toBe(400);
    expect((await slots(siteA, listingA, { from: "tomorrow" })).status).toBe(400);
  });
});
