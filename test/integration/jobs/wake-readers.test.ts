/**
 * A commit wakes only the background work its events concern: event delivery when a delivery was
 * queued (the tenant's webhook selected an event), the saved-search matcher when a listing was
 * created or changed. A chat message's event, which no webhook selects, wakes neither (issues 34
 * and 35: each wake-up cost the two jobs' queries to find nothing).
 */
import { getTableColumns, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { events } from "../../../db/schema";
import { inTenantTransaction, settleAfterCommit } from "../../../db/transaction";
import { authenticateApiKey } from "../../../lib/auth/authenticate-key";
import { resetConfigForTests } from "../../../lib/config";
import { memberCtx } from "../../../lib/context/verb-context";
import { putWebhookSettings } from "../../../lib/event-delivery/webhook-settings";
import { onJobEvent } from "../../../lib/jobs/dispatch";
import type { EventName } from "../../../lib/outbox/event-names";
import { changeWithEvents, EVENT_ROW_COLUMNS, type NewEvent, recordEvents } from "../../../lib/outbox/record-event";
import * as channelsRoute from "../../../app/api/v1/settings/messaging-channels/route";
import * as messagesRoute from "../../../app/api/sites/[siteId]/chat/messages/route";
import * as sessionsRoute from "../../../app/api/sites/[siteId]/chat/sessions/route";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { startReceiver } from "../../helpers/receiver";
import { makeSite } from "../../helpers/sites";

const saved = { ...process.env };
const r = await startReceiver();
const sent: string[] = [];
const unsubscribe = onJobEvent((name) => sent.push(name));
beforeAll(() => {
  process.env.JOBS_RUNNER = "embedded";
  resetConfigForTests();
});
afterEach(() => {
  sent.length = 0;
});
afterAll(async () => {
  unsubscribe();
  process.env = saved;
  resetConfigForTests();
  await r.close();
});

const ev = (tenantId: string, eventName: EventName, entityId = "e1"): NewEvent => ({
  tenantId,
  eventName,
  entityType: eventName.split(".")[0],
  entityId,
  userId: null,
  data: { entityId },
});

/** A tenant whose webhook selects `deal.created` only (or the events given). */
async function subscribed(selected: EventName[] = ["deal.created"]) {
  const t = await makeTenant();
  const db = await getDb();
  await putWebhookSettings(memberCtx(db, await authenticateApiKey(db, t.key)), { url: r.url, events: selected, hmac: false, bearer: false });
  await settleAfterCommit();
  sent.length = 0;
  return t;
}

async function record(tenantId: string, list: NewEvent[]) {
  await inTenantTransaction(await getDb(), tenantId, (tx) => recordEvents(tx, list));
  await settleAfterCommit();
  return [...sent];
}

describe("what a commit of events wakes", () => {
  it("events no webhook selects, and no listing event: nothing", async () => {
    const t = await subscribed();
    expect(await record(t.tenantId, [ev(t.tenantId, "channel.message.received"), ev(t.tenantId, "deal.updated")])).toEqual([]);
  });

  it("an event the webhook selects: delivery only, once for the transaction's writes", async () => {
    const t = await subscribed();
    const db = await getDb();
    await inTenantTransaction(db, t.tenantId, async (tx) => {
      await recordEvents(tx, [ev(t.tenantId, "deal.created", "a")]);
      await recordEvents(tx, [ev(t.tenantId, "deal.created", "b")]);
    });
    await settleAfterCommit();
    expect(sent).toEqual(["crm/events.queued"]);
  });

  it("a listing created or changed: the matcher, and delivery too when the webhook selects one of the events", async () => {
    const t = await subscribed();
    expect(await record(t.tenantId, [ev(t.tenantId, "listing.updated")])).toEqual(["crm/listing-events.recorded"]);
    sent.length = 0;
    expect(await record(t.tenantId, [ev(t.tenantId, "listing.created"), ev(t.tenantId, "deal.created")]).then((s) => s.sort())).toEqual([
      "crm/events.queued",
      "crm/listing-events.recorded",
    ]);
    sent.length = 0;
    // A listing event the matcher does not read (changesOf) wakes nothing.
    expect(await record(t.tenantId, [ev(t.tenantId, "listing.deleted")])).toEqual([]);
  });

  it("changeWithEvents: wakes after its own commit, and answers the change's rows without the queue count", async () => {
    const t = await subscribed();
    const db = await getDb();
    const rows = await changeWithEvents<{ n: number }>(db, t.tenantId, (locked) => sql`select 7 as n where ${locked}`, [ev(t.tenantId, "deal.created")]);
    expect(rows).toEqual([{ n: 7 }]);
    await settleAfterCommit();
    expect(sent).toEqual(["crm/events.queued"]);
    sent.length = 0;
    await changeWithEvents(db, t.tenantId, (locked) => sql`select 1 as n where ${locked}`, [ev(t.tenantId, "deal.updated")]);
    await settleAfterCommit();
    expect(sent).toEqual([]);
  });
});

describe("web chat's intake batch", () => {
  /** A visitor's message on the tenant's site chat; answers what it woke. */
  async function visitorMessage(t: TestTenant) {
    const channel = await call(channelsRoute.POST, "POST", "/x", { key: t.key, body: { name: "Chat", transport: "web_chat" } });
    const siteId = (await makeSite(t, { chat: { channelId: channel.body.id } })).id;
    const session = await call(sessionsRoute.POST, "POST", "/x", { params: { siteId }, body: {} });
    await settleAfterCommit();
    sent.length = 0;
    const res = await call(messagesRoute.POST, "POST", "/x", {
      params: { siteId },
      body: { text: "Oi", clientMessageId: "m1" },
      headers: { authorization: `Bearer ${session.body.sessionToken}` },
    });
    expect(res.status).toBe(201);
    await settleAfterCommit();
    return [...sent];
  }

  it("wakes delivery when the webhook selects chat messages, and nothing otherwise", async () => {
    expect(await visitorMessage(await subscribed(["channel.message.received"]))).toEqual(["crm/events.queued"]);
    expect(await visitorMessage(await subscribed())).toEqual([]);
  });
});

describe("the columns recordEvents writes", () => {
  it("are every column of the events table but its own id, seq and the time", () => {
    // A column added to `events` must be written by recordEvents and changeWithEvents (EVENT_ROW_COLUMNS), not left at its default.
    const table = Object.values(getTableColumns(events)).map((c) => c.name);
    expect([...Object.keys(EVENT_ROW_COLUMNS), "id", "seq", "occurred_at"].sort()).toEqual(table.sort());
  });

  it("round-trip every value, in the order given", async () => {
    const t = await makeTenant();
    const e = { ...ev(t.tenantId, "deal.updated", "x1"), userId: t.ownerId, data: { a: [1, "b"], at: new Date("2026-01-02T03:04:05Z") }, old: { a: null } };
    await record(t.tenantId, [e, ev(t.tenantId, "deal.updated", "x2")]);
    const db = await getDb();
    const rows = await db.select().from(events).where(sql`${events.tenantId} = ${t.tenantId} and ${events.entityId} in ('x1', 'x2')`).orderBy(events.seq);
    expect(rows.map((x) => x.entityId)).toEqual(["x1", "x2"]);
    expect(rows[0]).toMatchObject({
      eventName: "deal.updated",
      entityType: "deal",
      userId: t.ownerId,
      data: { a: [1, "b"], at: "2026-01-02T03:04:05.000Z" },
      old: { a: null },
    });
    expect(rows[1].old).toBeNull();
  });
});
