import type { DbOrTx } from "../../db/client";
import { events } from "../../db/schema";
import type { EventName } from "./event-names";

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
 * Writes an outbox row. Call it with the transaction that makes the change, so the event exists
 * exactly when the change does. `occurredAt` is fixed here, at queue time.
 */
export async function recordEvent(tx: DbOrTx, e: NewEvent): Promise<void> {
  await tx.insert(events).values({ ...e, old: e.old ?? null, data: jsonSafe(e.data), occurredAt: new Date() });
}

/** Dates become ISO strings now, so the stored payload is exactly what will be sent. */
function jsonSafe(v: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(v));
}
