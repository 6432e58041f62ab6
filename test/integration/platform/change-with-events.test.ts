/**
 * `changeWithEvents`: a change and its events in one statement that takes the tenant's row lock
 * itself (the agents' hot paths, issue 34). The tenant's outbox must stay numbered in commit order:
 * an event is numbered only once its statement holds the lock. Under `npm run test:pg` the two
 * writers below run on separate PostgreSQL connections at the same time; on PGlite they run one
 * after the other.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { events } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import { changeWithEvents, type NewEvent, recordEvents } from "../../../lib/outbox/record-event";
import { makeTenant } from "../../helpers/factories";

const event = (tenantId: string, entityId: string): NewEvent => ({
  tenantId,
  eventName: "deal.created",
  entityType: "deal",
  entityId,
  userId: null,
  data: { entityId },
});

describe("a change and its events in one locked statement", () => {
  it("numbers its events after a tenant transaction that held the lock first, even if that one writes its event later", async () => {
    const t = await makeTenant();
    const db = await getDb();
    let release!: () => void;
    const hold = new Promise<void>((r) => {
      release = r;
    });
    let holding!: () => void;
    const isHolding = new Promise<void>((r) => {
      holding = r;
    });
    // Takes the tenant's lock, waits, and only then writes (and numbers) its event.
    const first = inTenantTransaction(db, t.tenantId, async (tx) => {
      holding();
      await hold;
      await recordEvents(tx, [event(t.tenantId, "first")]);
    });
    await isHolding;
    const second = changeWithEvents<{ id: string }>(db, t.tenantId, (locked) => sql`select ${t.tenantId}::uuid as id where ${locked}`, [
      event(t.tenantId, "second"),
    ]);
    // Time for the second statement to reach the server and, were it numbering before the lock, draw its number.
    await new Promise((r) => setTimeout(r, 150));
    release();
    await first;
    expect(await second).toHaveLength(1);

    const rows = await db
      .select({ entityId: events.entityId, seq: events.seq })
      .from(events)
      .where(and(eq(events.tenantId, t.tenantId), inArray(events.entityId, ["first", "second"])));
    const seq = Object.fromEntries(rows.map((r) => [r.entityId, r.seq]));
    expect(Object.keys(seq).sort()).toEqual(["first", "second"]);
    // Committed second, numbered second: a reader of the outbox by `seq` never skips the later commit.
    expect(seq.second).toBeGreaterThan(seq.first);
  });

  it("writes no event when the change matched nothing, and answers the change's rows otherwise", async () => {
    const t = await makeTenant();
    const db = await getDb();
    const none = await changeWithEvents(db, t.tenantId, (locked) => sql`select ${t.tenantId}::uuid as id where false and ${locked}`, [
      event(t.tenantId, "nothing"),
    ]);
    expect(none).toEqual([]);
    const two = await changeWithEvents<{ n: number }>(db, t.tenantId, (locked) => sql`select n from generate_series(1, 2) n where ${locked}`, [
      event(t.tenantId, "a"),
      event(t.tenantId, "b"),
    ]);
    expect(two.map((r) => Number(r.n))).toEqual([1, 2]);
    const rows = await db.select({ entityId: events.entityId, seq: events.seq }).from(events).where(eq(events.tenantId, t.tenantId)).orderBy(events.seq);
    // In the order given, and nothing for the change that matched no row.
    expect(rows.map((r) => r.entityId).filter((id) => ["nothing", "a", "b"].includes(id))).toEqual(["a", "b"]);
  });
});
