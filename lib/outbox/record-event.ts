import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { events } from "../../db/schema";
import { afterCommit } from "../../db/transaction";
import { sendJobEvent } from "../jobs/dispatch";
import type { EventName } from "./event-names";
import { eventsQueued } from "./events-queued";

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
 * Once the transaction commits, delivery is woken (whoever made the change: a route, a job, the seed).
 */
export async function recordEvent(tx: DbOrTx, e: NewEvent): Promise<string> {
  return (await recordEvents(tx, [e]))[0];
}

/**
 * `recordEvent` for several events of one change, in the order given (their `seq` order), in one
 * statement: the outbox rows and their delivery queue entries go together, so an event costs one
 * round trip inside the tenant's lock instead of two.
 */
export async function recordEvents(tx: DbOrTx, list: NewEvent[]): Promise<string[]> {
  if (!list.length) return [];
  const insert = tx
    .insert(events)
    .values(list.map((e) => ({ ...e, old: e.old ?? null, data: jsonSafe(e.data), occurredAt: new Date() })))
    .returning({ id: events.id, seq: events.seq, tenantId: events.tenantId, eventName: events.eventName });
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      with e as (${insert.getSQL()}),
      queued as (
        insert into event_deliveries (event_id, tenant_id)
        select e.id, w.tenant_id from e join webhook_settings w on w.tenant_id = e.tenant_id
        where w.url is not null and (e.event_name = any(w.events) or e.event_name = 'webhook.test')
        order by e.seq)
      select id from e order by seq`),
  );
  afterCommit(
    tx,
    "outbox:events-queued",
    () => null,
    () => sendJobEvent(eventsQueued, {}),
  );
  return rows.map((r) => r.id);
}

/** Dates become ISO strings now, so the stored payload is exactly what will be sent. */
function jsonSafe(v: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(v));
}
