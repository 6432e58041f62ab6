import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
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
  const [row] = await tx
    .insert(events)
    .values({ ...e, old: e.old ?? null, data: jsonSafe(e.data), occurredAt: new Date() })
    .returning({ id: events.id });
  await tx.execute(sql`
    insert into event_deliveries (event_id, tenant_id)
    select ${row.id}, tenant_id from webhook_settings
    where tenant_id = ${e.tenantId} and url is not null
      and (${e.eventName} = any(events) or ${e.eventName} = 'webhook.test')`);
  afterCommit(tx, "outbox:events-queued", () => null, () => sendJobEvent(eventsQueued, {}));
  return row.id;
}

/** Dates become ISO strings now, so the stored payload is exactly what will be sent. */
function jsonSafe(v: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(v));
}
