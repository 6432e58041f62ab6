import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as dealsRoute from "../../../app/api/v1/crm/deals/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as redeliverRoute from "../../../app/api/v1/settings/webhooks/deliveries/[eventId]/redeliver/route";
import * as deliveriesRoute from "../../../app/api/v1/settings/webhooks/deliveries/route";
import * as webhooksRoute from "../../../app/api/v1/settings/webhooks/route";
import * as secretRoute from "../../../app/api/v1/settings/webhooks/secret/route";
import * as testRoute from "../../../app/api/v1/settings/webhooks/test/route";
import { getDb } from "../../../db/client";
import { eventDeliveries, events } from "../../../db/schema";
import { rowsOf } from "../../../db/rows";
import { deliverDueEvents } from "../../../lib/event-delivery/deliver";
import { recordOutcomes } from "../../../lib/event-delivery/record-outcomes";
import { verifyWebhook } from "../../../lib/event-delivery/verify";
import { makeTenant, propertyBody, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { startReceiver } from "../../helpers/receiver";

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
const receivers: Receiver[] = [];
afterAll(async () => Promise.all(receivers.map((r) => r.close())));

async function receiver(respond?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

/** A tenant whose webhook points at `url`, with the given options; returns the secret if any. */
async function subscribe(t: TestTenant, url: string, opts: { hmac?: boolean; bearer?: boolean; events?: string[] } = {}) {
  const res = await call(webhooksRoute.PUT, "PUT", "/x", {
    key: t.key,
    body: { url, events: opts.events ?? ["deal.created", "deal.updated", "property.created", "listing.created"], hmac: !!opts.hmac, bearer: !!opts.bearer },
  });
  expect(res.status).toBe(200);
  return res.body.secret as string | undefined;
}

const dealBody = (title: string) => ({ title, dealType: "sale", contacts: [{ name: "Ana", email: "ana@example.com", role: "buyer" }] });
const createDeal = async (t: TestTenant, title: string) => {
  const res = await call(dealsRoute.POST, "POST", "/x", { key: t.key, body: dealBody(title) });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
/** One cycle, with the retry interval at zero so the next call is "the next cycle". */
const cycle = async (extra: Parameters<typeof deliverDueEvents>[1] = {}) => deliverDueEvents(await getDb(), { retrySeconds: 0, ...extra });

describe("outbound delivery", () => {
  it("posts the spec's envelope and headers, signed over the exact body, verifiable with the exported verifier", async () => {
    const t = await makeTenant();
    const r = await receiver();
    const secret = await subscribe(t, r.url, { hmac: true, bearer: true });
    const dealId = await createDeal(t, "Envelope");
    const report = await cycle();
    expect(report.delivered).toBe(1);
    const [got] = r.received;
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["user-agent"]).toBe("ImobiCRM-Webhook/1.0");
    expect(got.headers["x-tenant-id"]).toBe(t.tenantId);
    expect(got.headers["x-event-name"]).toBe("deal.created");
    expect(got.headers["x-event-id"]).toBe(got.json.eventId);
    expect(got.headers.authorization).toBe(`Bearer ${secret}`);
    expect(got.json).toMatchObject({
      eventName: "deal.created",
      tenantId: t.tenantId,
      data: { entityType: "deal", entityId: dealId, old: null, changes: null },
    });
    expect(got.json.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.json.data.userId).toBe(t.ownerId);
    expect(got.json.data.data.entity.title).toBe("Envelope");
    expect(Date.parse(got.json.occurredAt)).toBeLessThanOrEqual(Date.parse(got.json.timestamp));
    expect(Object.keys(got.json).sort()).toEqual(["data", "eventId", "eventName", "occurredAt", "tenantId", "timestamp"]);
    const ok = verifyWebhook({ secret: secret!, body: got.body, timestamp: got.headers["x-webhook-timestamp"], signature: got.headers["x-webhook-signature"] });
    expect(ok).toEqual({ ok: true });
    expect(
      verifyWebhook({ secret: "wrong", body: got.body, timestamp: got.headers["x-webhook-timestamp"], signature: got.headers["x-webhook-signature"] }).ok,
    ).toBe(false);
    expect(
      verifyWebhook({ secret: secret!, body: `${got.body} `, timestamp: got.headers["x-webhook-timestamp"], signature: got.headers["x-webhook-signature"] }).ok,
    ).toBe(false);
  });

  it("sends the stored data and old as they were stored: every digit of a long number, escapes and non-ASCII text, a null user", async () => {
    const t = await makeTenant();
    const r = await receiver();
    const secret = await subscribe(t, r.url, { hmac: true });
    const db = await getDb();
    // Written as JSON text: a JavaScript number could not hold these digits.
    await db.execute(sql`
      with e as (
        insert into events (tenant_id, event_name, entity_type, entity_id, user_id, data, old)
        values (${t.tenantId}, 'deal.updated', 'deal', ${'id "quoted" \\ and\nline'}, null,
                ${'{"amount": 12345678901234567890.123456789, "title": "Casa \\"Vista\\" – São João ☀", "tags": ["a", null, true]}'}::jsonb,
                ${'{"amount": 0.1000000000000000000001, "title": "antes"}'}::jsonb)
        returning id, tenant_id)
      insert into event_deliveries (event_id, tenant_id) select id, tenant_id from e`);
    expect((await cycle()).delivered).toBe(1);
    const [got] = r.received;
    expect(got.body).toContain('"amount": 12345678901234567890.123456789');
    expect(got.body).toContain('"amount": 0.1000000000000000000001');
    expect(got.json.data).toEqual({
      entityType: "deal",
      entityId: 'id "quoted" \\ and\nline',
      userId: null,
      data: { amount: 12345678901234567000, title: 'Casa "Vista" – São João ☀', tags: ["a", null, true] },
      old: { amount: 0.1, title: "antes" },
      changes: null,
    });
    expect(Object.keys(got.json)).toEqual(["eventId", "eventName", "occurredAt", "timestamp", "tenantId", "data"]);
    expect(
      verifyWebhook({ secret: secret!, body: got.body, timestamp: got.headers["x-webhook-timestamp"], signature: got.headers["x-webhook-signature"] }),
    ).toEqual({ ok: true });
  });

  it("sends no auth headers by default, only selected events, and nothing without a URL", async () => {
    const t = await makeTenant();
    await createDeal(t, "Before any webhook");
    const r = await receiver();
    await subscribe(t, r.url, { events: ["property.created"] });
    await createDeal(t, "Not selected");
    await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body: propertyBody({}, []) });
    await cycle();
    expect(r.received.map((x) => x.json.eventName)).toEqual(["property.created"]);
    for (const h of ["authorization", "x-webhook-signature", "x-webhook-timestamp"]) expect(r.received[0].headers).not.toHaveProperty(h);
    const db = await getDb();
    expect(await db.select().from(eventDeliveries).where(eq(eventDeliveries.tenantId, t.tenantId))).toHaveLength(1);
  });

  it("keeps a tenant's order under failures: the failed head holds the rest back, then all go in order", async () => {
    const t = await makeTenant();
    let failing = true;
    const r = await receiver(() => ({ status: failing ? 503 : 200 }));
    await subscribe(t, r.url);
    const ids = [];
    for (const n of [1, 2, 3]) ids.push(await createDeal(t, `FIFO ${n}`));
    await cycle();
    await cycle();
    // Only the head was tried, once per cycle.
    expect(r.received.map((x) => x.json.data.entityId)).toEqual([ids[0], ids[0]]);
    failing = false;
    await cycle();
    expect(r.received.slice(2).map((x) => x.json.data.entityId)).toEqual(ids);
  });

  it("waits for the retry interval before the next attempt of a failed head", async () => {
    const t = await makeTenant();
    const r = await receiver(() => ({ status: 500 }));
    await subscribe(t, r.url);
    await createDeal(t, "Interval");
    await cycle({ retrySeconds: 60 });
    await cycle({ retrySeconds: 60 });
    expect(r.received).toHaveLength(1);
  });

  it("drops an event after exactly 8 failures and moves the next one up; retries keep eventId and change timestamp", async () => {
    const t = await makeTenant();
    const r = await receiver((got) => ({ status: got.json.data.data.entity.title === "Doomed" ? 500 : 200 }));
    await subscribe(t, r.url);
    await createDeal(t, "Doomed");
    await createDeal(t, "Next");
    for (let i = 0; i < 8; i++) await cycle();
    const tries = r.received.filter((x) => x.json.data.data.entity.title === "Doomed");
    expect(tries).toHaveLength(8);
    expect(new Set(tries.map((x) => x.json.eventId)).size).toBe(1);
    expect(new Set(tries.map((x) => x.headers["x-event-id"])).size).toBe(1);
    expect(new Set(tries.map((x) => x.json.timestamp)).size).toBe(8);
    expect(new Set(tries.map((x) => x.json.occurredAt)).size).toBe(1);
    // The 8th failure dropped it and the next event went out in the same cycle.
    expect(r.received.at(-1)!.json.data.data.entity.title).toBe("Next");
    await cycle();
    expect(r.received.filter((x) => x.json.data.data.entity.title === "Doomed")).toHaveLength(8);

    const log = await call(deliveriesRoute.GET, "GET", "/x", { key: t.key, query: { state: "dropped" } });
    expect(log.body.items).toHaveLength(1);
    expect(log.body.items[0]).toMatchObject({ state: "dropped", failures: 8, eventName: "deal.created" });
    expect(log.body.items[0].attempts).toHaveLength(8);
    expect(log.body.items[0].attempts[0]).toMatchObject({ statusCode: 500, error: "HTTP 500", responseExcerpt: "ok", url: r.url });
  });

  it("counts a slow receiver as a failure once the timeout passes", async () => {
    const t = await makeTenant();
    const r = await receiver(() => ({ delayMs: 2000 }));
    await subscribe(t, r.url);
    await createDeal(t, "Slow");
    const report = await cycle({ timeoutMs: 300 });
    expect(report).toMatchObject({ delivered: 0, failed: 1 });
    const log = await call(deliveriesRoute.GET, "GET", "/x", { key: t.key });
    expect(log.body.items[0].attempts[0].error).toMatch(/timeout after 300 ms/);
    expect(log.body.items[0].attempts[0].durationMs).toBeGreaterThanOrEqual(290);
  });

  it("does not let one tenant's failing receiver hold another tenant back", async () => {
    const a = await makeTenant();
    const b = await makeTenant();
    const down = await receiver(() => ({ status: 500 }));
    const up = await receiver();
    await subscribe(a, down.url);
    await subscribe(b, up.url);
    await createDeal(a, "A1");
    await createDeal(a, "A2");
    await createDeal(b, "B1");
    await createDeal(b, "B2");
    await cycle();
    expect(up.received.map((x) => x.json.data.data.entity.title)).toEqual(["B1", "B2"]);
    expect(down.received).toHaveLength(1);
  });

  it("never makes the same attempt twice when two workers run at once", async () => {
    const tenants = [await makeTenant(), await makeTenant(), await makeTenant()];
    const r = await receiver(() => ({ delayMs: 5 }));
    for (const t of tenants) {
      await subscribe(t, r.url);
      for (let i = 0; i < 5; i++) await createDeal(t, `W${i}`);
    }
    await Promise.all([cycle({ workerId: "worker-a" }), cycle({ workerId: "worker-b" }), cycle({ workerId: "worker-c" })]);
    await cycle();
    const ids = r.received.map((x) => x.json.eventId);
    expect(ids).toHaveLength(15);
    expect(new Set(ids).size).toBe(15);
    for (const t of tenants) {
      const titles = r.received.filter((x) => x.json.tenantId === t.tenantId).map((x) => x.json.data.data.entity.title);
      expect(titles).toEqual(["W0", "W1", "W2", "W3", "W4"]);
    }
  });

  it("signs a retry after a rotation with the new secret; the old one no longer verifies", async () => {
    const t = await makeTenant();
    let fail = true;
    const r = await receiver(() => ({ status: fail ? 500 : 200 }));
    const oldSecret = (await subscribe(t, r.url, { hmac: true }))!;
    await createDeal(t, "Rotate");
    await cycle();
    const rotated = await call(secretRoute.POST, "POST", "/x", { key: t.key });
    fail = false;
    await cycle();
    const retry = r.received[1];
    const args = { body: retry.body, timestamp: retry.headers["x-webhook-timestamp"], signature: retry.headers["x-webhook-signature"] };
    expect(verifyWebhook({ secret: rotated.body.secret, ...args })).toEqual({ ok: true });
    expect(verifyWebhook({ secret: oldSecret, ...args })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("resends after a worker died between sending and recording (lease expired), with the same eventId", async () => {
    const t = await makeTenant();
    const r = await receiver();
    await subscribe(t, r.url);
    await createDeal(t, "Crash");
    const db = await getDb();
    // A worker claimed the head and vanished: its lease is in the past now.
    await db
      .update(eventDeliveries)
      .set({ lockedBy: "dead-worker", lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(eventDeliveries.tenantId, t.tenantId));
    await cycle();
    expect(r.received).toHaveLength(1);
    const [row] = await db.select().from(eventDeliveries).where(eq(eventDeliveries.tenantId, t.tenantId));
    expect(row.state).toBe("delivered");
    // A live lease is respected.
    await createDeal(t, "Leased");
    await db
      .update(eventDeliveries)
      .set({ lockedBy: "busy", lockedUntil: new Date(Date.now() + 60_000) })
      .where(eq(eventDeliveries.state, "pending"));
    await cycle();
    expect(r.received).toHaveLength(1);
  });
});

describe("receivers that answer oddly", () => {
  it("keeps the log storable and secret-free when a receiver answers NUL bytes or echoes our headers", async () => {
    const t = await makeTenant();
    const r = await receiver((got) => ({ status: 200, body: `ok\u0000 auth=${got.headers.authorization}` }));
    const secret = await subscribe(t, r.url, { bearer: true });
    await createDeal(t, "Odd answer");
    expect(await cycle()).toMatchObject({ delivered: 1, failed: 0 });
    const log = await call(deliveriesRoute.GET, "GET", "/x", { key: t.key });
    const excerpt = log.body.items[0].attempts[0].responseExcerpt as string;
    expect(log.body.items[0].state).toBe("delivered");
    expect(excerpt).not.toContain("\u0000");
    expect(excerpt).not.toContain(secret!);
    expect(excerpt).toContain("Bearer ***");
  });
});

describe("test action, delivery log and redelivery", () => {
  it("delivers webhook.test at once and answers the receiver's status", async () => {
    const t = await makeTenant();
    expect((await call(testRoute.POST, "POST", "/x", { key: t.key })).status).toBe(409);
    const r = await receiver(() => ({ status: 204 }));
    const secret = await subscribe(t, r.url, { hmac: true, events: [] });
    const res = await call(testRoute.POST, "POST", "/x", { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ delivered: true, statusCode: 204, error: null });
    expect(r.received[0].json.eventName).toBe("webhook.test");
    expect(
      verifyWebhook({
        secret: secret!,
        body: r.received[0].body,
        timestamp: r.received[0].headers["x-webhook-timestamp"],
        signature: r.received[0].headers["x-webhook-signature"],
      }).ok,
    ).toBe(true);
  });

  it("pages the log with a cursor and requeues delivered events with the same eventId", async () => {
    const t = await makeTenant();
    const r = await receiver();
    await subscribe(t, r.url);
    for (const n of [1, 2, 3]) await createDeal(t, `Log ${n}`);
    await cycle();
    const p1 = await call(deliveriesRoute.GET, "GET", "/x", { key: t.key, query: { limit: "2" } });
    expect(p1.body.items.map((i: any) => i.state)).toEqual(["delivered", "delivered"]);
    expect(p1.body.nextCursor).toBeTruthy();
    const p2 = await call(deliveriesRoute.GET, "GET", "/x", { key: t.key, query: { limit: "2", cursor: p1.body.nextCursor } });
    expect(p2.body.items).toHaveLength(1);
    expect(p2.body.nextCursor).toBeNull();
    const first = p2.body.items[0];
    expect(first.attempts[0]).toMatchObject({ statusCode: 200, error: null });

    const again = await call(redeliverRoute.POST, "POST", "/x", { key: t.key, params: { eventId: first.eventId } });
    expect(again.status).toBe(202);
    expect((await call(redeliverRoute.POST, "POST", "/x", { key: t.key, params: { eventId: first.eventId } })).status).toBe(409);
    await cycle();
    expect(r.received.at(-1)!.json.eventId).toBe(first.eventId);
    const other = await makeTenant();
    expect((await call(redeliverRoute.POST, "POST", "/x", { key: other.key, params: { eventId: first.eventId } })).status).toBe(404);
    expect((await call(deliveriesRoute.GET, "GET", "/x", { key: other.key })).body.items).toEqual([]);
    expect((await call(deliveriesRoute.GET, "GET", "/x", { key: t.key, query: { limit: "500" } })).status).toBe(400);
  });

  it("deletes the delivery log with its event and its tenant, and logs no attempt of an event deleted meanwhile", async () => {
    const [a, b] = [await makeTenant(), await makeTenant()];
    const r = await receiver();
    for (const t of [a, b]) {
      await subscribe(t, r.url);
      await createDeal(t, "Logged");
      await createDeal(t, "Logged too");
    }
    await cycle();
    const db = await getDb();
    const attempts = async (tenantId: string) =>
      rowsOf<{ event_id: string }>(await db.execute(sql`select event_id from delivery_attempts where tenant_id = ${tenantId} order by at`)).map(
        (x) => x.event_id,
      );
    const [gone, kept] = await attempts(a.tenantId);
    expect(await attempts(b.tenantId)).toHaveLength(2);

    await db.execute(sql`delete from events where id = ${gone}`);
    expect(await attempts(a.tenantId)).toEqual([kept]);
    await db.execute(sql`delete from tenants where id = ${a.tenantId}`);
    expect(await attempts(a.tenantId)).toEqual([]);
    expect(await attempts(b.tenantId)).toHaveLength(2);

    // An outcome that arrives after its event was deleted (the tenant was removed mid-send) leaves no orphan row.
    const attempt = { at: new Date(), url: r.url, ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "ok" };
    await recordOutcomes(db, "w-test", [{ eventId: gone, tenantId: a.tenantId, attempt }], 0);
    expect(await attempts(a.tenantId)).toEqual([]);
  });

  it("stores each event once in the outbox whatever happens to delivery", async () => {
    const t = await makeTenant();
    await createDeal(t, "Outbox only");
    const db = await getDb();
    expect(await db.select().from(events).where(eq(events.tenantId, t.tenantId))).toHaveLength(1);
  });
});
