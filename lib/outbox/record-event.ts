import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { events } from "../../db/schema";
import { afterCommit, isOpenTransaction } from "../../db/transaction";
import { sendJobEvent } from "../jobs/dispatch";
import type { EventName } from "./event-names";
import { eventsQueued, LISTING_CHANGE_EVENTS, listingEventsRecorded } from "./events-queued";

export type NewEvent = {
  tenantId: string;
  eventName: EventName;
  entityType: string;
  entityId: string;
  userId: string | null;
  data: Record<string, unknown>;
  old?: Record<string, unknown> | null;
};

/**
 * Writes an outbox row, and queues it for delivery when the tenant's webhook selects it. Call it
 * with the transaction that makes the change, so the event exists exactly when the change does,
 * and that transaction must be an `inTenantTransaction`: its tenant row lock is what makes queue
 * order equal commit order (sequence numbers are drawn before commit). `occurredAt` is fixed here.
 * Once the transaction commits, the background work that reads the events is woken (`wakeReaders`),
 * whoever made the change: a route, a job, the seed.
 */
export async function recordEvent(tx: DbOrTx, e: NewEvent): Promise<string> {
  return (await recordEvents(tx, [e]))[0];
}

/**
 * The CTE that queues the events of CTE `e` (id, seq, tenant_id, event_name) for delivery when the
 * tenant's webhook selects them, in `seq` order: shared by `recordEvents` and `changeWithEvents`.
 */
const QUEUE_DELIVERIES = sql`queued as (
  insert into event_deliveries (event_id, tenant_id)
  select e.id, w.tenant_id from e join webhook_settings w on w.tenant_id = e.tenant_id
  where w.url is not null and (e.event_name = any(w.events) or e.event_name = 'webhook.test')
  order by e.seq
  returning 1)`;

/**
 * The columns `recordEvents` writes from each event, with their types in its JSON rows. `id` and
 * `seq` are the table's own, `occurred_at` is the statement's time; a test holds these to the
 * schema's columns, so a column added to `events` cannot be left at its default here unseen.
 */
export const EVENT_ROW_COLUMNS = {
  tenant_id: "uuid",
  event_name: "text",
  entity_type: "text",
  entity_id: "text",
  user_id: "uuid",
  data: "jsonb",
  old: "jsonb",
} as const;
const rowOf = (e: NewEvent, i: number): Record<keyof typeof EVENT_ROW_COLUMNS | "i", unknown> => ({
  i,
  tenant_id: e.tenantId,
  event_name: e.eventName,
  entity_type: e.entityType,
  entity_id: e.entityId,
  user_id: e.userId,
  data: e.data,
  old: e.old ?? null,
});
const COLUMN_NAMES = Object.keys(EVENT_ROW_COLUMNS);
const INSERT_COLUMNS = sql.raw(COLUMN_NAMES.join(", "));
const SELECT_COLUMNS = sql.raw(COLUMN_NAMES.map((c) => `r.${c}`).join(", "));
const RECORD_TYPE = sql.raw(
  Object.entries(EVENT_ROW_COLUMNS)
    .map(([c, t]) => `${c} ${t}`)
    .join(", "),
);

/**
 * `recordEvent` for several events of one change, in the order given (their `seq` order), in one
 * statement: the outbox rows and their delivery queue entries go together, so an event costs one
 * round trip inside the tenant's lock instead of two.
 */
export async function recordEvents(tx: DbOrTx, list: NewEvent[]): Promise<string[]> {
  if (!list.length) return [];
  // The rows go as one JSON parameter: drizzle building a multi-row insert with a parameter per
  // value cost more CPU than the statement itself for a batch of hundreds (web chat, issue 35).
  // JSON.stringify makes Dates ISO strings and leaves undefined out, so the stored payload is what
  // will be sent; the rows are inserted in the order given, so their `seq` follows it.
  const rows = rowsOf<{ id: string; queued: number }>(
    await tx.execute(sql`
      with e as (
        insert into ${events} (${INSERT_COLUMNS}, occurred_at)
        select ${SELECT_COLUMNS}, ${new Date().toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(list.map(rowOf))}::jsonb) as r(i int, ${RECORD_TYPE})
        order by r.i
        returning id, seq, tenant_id, event_name),
      ${QUEUE_DELIVERIES}
      select id, (select count(*) from queued)::int as queued from e order by seq`),
  );
  wakeReaders(tx, list, (rows[0]?.queued ?? 0) > 0);
  return rows.map((r) => r.id);
}

type Wakes = { delivery: boolean; matcher: boolean };

/**
 * Wakes, once the events are committed (after the open transaction, or now for a statement that
 * committed on its own), only the readers they concern: delivery when a delivery was queued, the
 * saved-search matcher when a listing changed. Waking both at every event made each chat message
 * cost the matcher's and delivery's queries to find nothing (issues 34 and 35).
 */
function wakeReaders(db: DbOrTx, list: NewEvent[], queued: boolean) {
  const w: Wakes = { delivery: queued, matcher: list.some((e) => LISTING_CHANGE_EVENTS.includes(e.eventName)) };
  if (!w.delivery && !w.matcher) return;
  if (!isOpenTransaction(db)) return sendWakes(w);
  // One hook per transaction, whatever its number of writes: the flags gather what they need.
  const acc = afterCommit<Wakes>(db, "outbox:wake-readers", () => ({ delivery: false, matcher: false }), sendWakes);
  acc.delivery ||= w.delivery;
  acc.matcher ||= w.matcher;
}

function sendWakes(w: Wakes) {
  if (w.delivery) sendJobEvent(eventsQueued, {});
  if (w.matcher) sendJobEvent(listingEventsRecorded, {});
}

/**
 * A change and its events in ONE statement that takes the tenant's row lock first, for hot paths
 * that need the lock only to number their events (issue 34: agent executions' start and end).
 * The events get their `seq` under the lock, as in an `inTenantTransaction`, so the tenant's
 * outbox is still numbered in commit order; but outside a transaction the statement commits on its
 * own, so the lock is held only while the server runs and commits it, never across a round trip
 * of ours or a wait of this process's event loop.
 *
 * `change(locked)` is one data-modifying statement with `returning` whose `where` includes
 * `locked`: an uncorrelated `exists` on the lock, which PostgreSQL evaluates once, before it reads
 * (and locks) any row of the change, so the tenant lock is still the first lock taken. The events
 * read the change's rows, so they are drawn after it, and written only when it returned a row (a
 * fenced update that matched nothing writes none). Answers the change's rows (raw: snake_case).
 * Inside an `inTenantTransaction` (the lock already held) `change` may leave `locked` out: the
 * statement then only saves the round trip between the change and its events.
 *
 * `also(locked)`: further data-modifying statements of the same change, run by the same statement
 * whether or not `change` matched (PostgreSQL runs every data-modifying CTE once). Each must
 * include `locked` in its `where` (an `insert … select … where locked` for an insert), so it takes
 * no row lock before the tenant's.
 */
export async function changeWithEvents<R>(
  db: DbOrTx,
  tenantId: string,
  change: (locked: SQL) => SQL,
  list: NewEvent[],
  also: (locked: SQL) => SQL[] = () => [],
): Promise<R[]> {
  const ctes = [
    sql`tenant_lock as materialized (select id from tenants where id = ${tenantId}::uuid for no key update)`,
    sql`changed as (${change(sql`exists (select 1 from tenant_lock)`)})`,
    ...also(sql`exists (select 1 from tenant_lock)`).map((w, i) => sql`${sql.raw(`also_${i}`)} as (${w})`),
  ];
  if (list.length) {
    ctes.push(
      sql`e as (
        insert into events (${INSERT_COLUMNS}, occurred_at)
        -- The time is read when the row is written, after the lock (the statement may wait for
        -- it), so a later seq never carries an earlier time, as with recordEvents under the lock.
        select ${SELECT_COLUMNS}, clock_timestamp()
        from jsonb_to_recordset(${JSON.stringify(list.map(rowOf))}::jsonb) as r(i int, ${RECORD_TYPE})
        where exists (select 1 from changed)
        order by r.i
        returning id, seq, tenant_id, event_name)`,
      QUEUE_DELIVERIES,
    );
  }
  if (!list.length) return rowsOf<R>(await db.execute(sql`with ${sql.join(ctes, sql`, `)} select * from changed`));
  // The count of queued deliveries rides on each row, under a name no table has, and is taken off.
  const rows = rowsOf<R & { crm_queued?: number }>(
    await db.execute(sql`with ${sql.join(ctes, sql`, `)} select c.*, (select count(*) from queued)::int as crm_queued from changed c`),
  );
  if (!rows.length) return rows;
  wakeReaders(db, list, (rows[0].crm_queued ?? 0) > 0);
  for (const r of rows) delete r.crm_queued;
  return rows;
}
