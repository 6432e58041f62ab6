/**
 * Delivery shared by two workers (two nodes' jobs workers): runs of events claimed in batches by
 * both at once, with failures moving tenants from one worker to the other. On PGlite the two
 * workers interleave on one connection; under `npm run test:pg` they run on separate PostgreSQL
 * connections at the same time.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as webhooksRoute from "../../../app/api/v1/settings/webhooks/route";
import { getDb } from "../../../db/client";
import { eventDeliveries } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import { deliverDueEvents } from "../../../lib/event-delivery/deliver";
import { recordEvents } from "../../../lib/outbox/record-event";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { type Received, startReceiver } from "../../helpers/receiver";

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
const receivers: Receiver[] = [];
afterAll(async () => Promise.all(receivers.map((r) => r.close())));

async function subscribe(t: TestTenant, url: string) {
  const res = await call(webhooksRoute.PUT, "PUT", "/x", { key: t.key, body: { url, events: ["deal.created"], hmac: true, bearer: false } });
  expect(res.status).toBe(200);
}

/** `count` deal.created events for the tenant, numbered 0.. in `data.n`, queued in that order. */
async function queue(t: TestTenant, count: number) {
  const db = await getDb();
  const list = Array.from({ length: count }, (_, n) => ({
    tenantId: t.tenantId,
    eventName: "deal.created" as const,
    entityType: "deal",
    entityId: `deal-${n}`,
    userId: null,
    data: { n },
  }));
  await inTenantTransaction(db, t.tenantId, (tx) => recordEvents(tx, list));
}

describe("two workers sharing the delivery queues", () => {
  it("deliver every event once, each tenant's in queue order, across runs, failures and retries", async () => {
    // The first attempt of every 37th event fails: its tenant stops, and its retry may be taken by either worker.
    const failedOnce = new Set<string>();
    const answered: { json: any; status: number }[] = [];
    const r = await startReceiver((got: Received) => {
      const n = got.json.data.data.n as number;
      const status = n % 37 === 5 && !failedOnce.has(got.json.eventId) ? 503 : 200;
      if (status === 503) failedOnce.add(got.json.eventId);
      answered.push({ json: got.json, status });
      return { status };
    });
    const ok = () => answered.filter((x) => x.status === 200);
    receivers.push(r);
    const tenants: TestTenant[] = [];
    const PER_TENANT = 130; // more than one run of 100
    for (let i = 0; i < 3; i++) {
      const t = await makeTenant();
      await subscribe(t, r.url);
      await queue(t, PER_TENANT);
      tenants.push(t);
    }
    const total = tenants.length * PER_TENANT;
    const db = await getDb();
    const worker = async (workerId: string) => {
      const mine = { delivered: 0, failed: 0 };
      for (let cycle = 0; cycle < 200 && ok().length < total; cycle++) {
        const report = await deliverDueEvents(db, { workerId, concurrency: 2, retrySeconds: 0 });
        mine.delivered += report.delivered;
        mine.failed += report.failed;
        if (!report.delivered && !report.failed) await new Promise((done) => setTimeout(done, 10));
      }
      return mine;
    };
    const [a, b] = await Promise.all([worker("worker-a"), worker("worker-b")]);

    const delivered = ok();
    expect(delivered).toHaveLength(total);
    expect(new Set(delivered.map((x) => x.json.eventId)).size).toBe(total);
    for (const t of tenants) {
      const ns = delivered.filter((x) => x.json.tenantId === t.tenantId).map((x) => x.json.data.data.n);
      expect(ns).toEqual(Array.from({ length: PER_TENANT }, (_, n) => n));
    }
    // Each failure was attempted exactly twice (the failure, then the success), nothing else was sent twice.
    const failures = answered.filter((x) => x.status === 503);
    expect(failures).toHaveLength(failedOnce.size);
    expect(r.received).toHaveLength(total + failures.length);
    // Both workers' reports agree with the receiver.
    expect(a.delivered + b.delivered).toBe(total);
    expect(a.failed + b.failed).toBe(failures.length);
    const rows = await db.select().from(eventDeliveries).where(eq(eventDeliveries.state, "delivered"));
    expect(rows.filter((row) => tenants.some((t) => t.tenantId === row.tenantId))).toHaveLength(total);
  }, 120_000);

  it("ends a run where an event another worker holds begins, and sends the rest once it is free", async () => {
    const r = await startReceiver();
    receivers.push(r);
    const t = await makeTenant();
    await subscribe(t, r.url);
    await queue(t, 5);
    const db = await getDb();
    const [, , third] = await db.select().from(eventDeliveries).where(eq(eventDeliveries.tenantId, t.tenantId)).orderBy(eventDeliveries.queueSeq);
    await db
      .update(eventDeliveries)
      .set({ lockedBy: "other-worker", lockedUntil: new Date(Date.now() + 60_000) })
      .where(and(eq(eventDeliveries.eventId, third.eventId), eq(eventDeliveries.tenantId, t.tenantId)));
    await deliverDueEvents(db, { workerId: "worker-a", retrySeconds: 0 });
    expect(r.received.map((x) => x.json.data.data.n)).toEqual([0, 1]);
    // The other worker's lease ran out: the queue goes on from that event, in order.
    await db
      .update(eventDeliveries)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(eventDeliveries.eventId, third.eventId));
    await deliverDueEvents(db, { workerId: "worker-b", retrySeconds: 0 });
    expect(r.received.map((x) => x.json.data.data.n)).toEqual([0, 1, 2, 3, 4]);
  });
});
