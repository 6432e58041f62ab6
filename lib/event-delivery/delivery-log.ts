import { and, asc, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { deliveryAttempts, eventDeliveries, events } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { conflict, notFound } from "../errors/domain-errors";
import { queryInt } from "../schemas/paging";
import { inTenantTransaction } from "../../db/transaction";

export const DeliveryLogQuery = z
  .strictObject({
    limit: queryInt("limit", 1, 100).default(50),
    cursor: z
      .string()
      .regex(/^\d{1,18}$/, "must be the nextCursor of a previous page")
      .optional(),
    state: z.enum(["pending", "delivered", "dropped"]).optional(),
  })
  .meta({ id: "DeliveryLogQuery" });

const AttemptSchema = z.object({
  at: z.string(),
  url: z.string(),
  statusCode: z.number().nullable(),
  error: z.string().nullable().meta({ description: "Network error, timeout or `HTTP <status>`; null on success." }),
  durationMs: z.number(),
  responseExcerpt: z.string().nullable().meta({ description: "First 1000 characters of the receiver's answer." }),
});

export const DeliverySchema = z
  .object({
    eventId: z.uuid(),
    eventName: z.string(),
    occurredAt: z.string(),
    state: z.enum(["pending", "delivered", "dropped"]),
    failures: z.number().meta({ description: "Failed attempts since the event was (re)queued; the 8th drops it." }),
    nextAttemptAt: z.string().nullable(),
    attempts: z.array(AttemptSchema),
  })
  .meta({ id: "Delivery" });

export const DeliveryPageSchema = z.object({ items: z.array(DeliverySchema), nextCursor: z.string().nullable() }).meta({ id: "DeliveryPage" });

/** The answer of `redeliver`. */
export const RedeliverySchema = z.object({ eventId: z.uuid(), state: z.literal("pending") }).meta({ id: "Redelivery" });

/** Newest first; the cursor is the queue position of the last item (opaque to clients). */
export async function listDeliveries({ db, actor }: MemberCtx, q: z.infer<typeof DeliveryLogQuery>): Promise<z.infer<typeof DeliveryPageSchema>> {
  const rows = await db
    .select({ d: eventDeliveries, name: events.eventName, occurredAt: events.occurredAt })
    .from(eventDeliveries)
    .innerJoin(events, eq(events.id, eventDeliveries.eventId))
    .where(
      and(
        eq(eventDeliveries.tenantId, actor.tenantId),
        q.state ? eq(eventDeliveries.state, q.state) : undefined,
        q.cursor ? lt(eventDeliveries.queueSeq, Number(q.cursor)) : undefined,
      ),
    )
    .orderBy(desc(eventDeliveries.queueSeq))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const ids = page.map((r) => r.d.eventId);
  const attempts = ids.length
    ? await db
        .select()
        .from(deliveryAttempts)
        .where(and(eq(deliveryAttempts.tenantId, actor.tenantId), inArray(deliveryAttempts.eventId, ids)))
        .orderBy(asc(deliveryAttempts.at))
    : [];
  return {
    items: page.map((r) => ({
      eventId: r.d.eventId,
      eventName: r.name,
      occurredAt: r.occurredAt.toISOString(),
      state: r.d.state,
      failures: r.d.failures,
      nextAttemptAt: r.d.state === "pending" ? r.d.nextAttemptAt.toISOString() : null,
      attempts: attempts
        .filter((a) => a.eventId === r.d.eventId)
        .map((a) => ({
          at: a.at.toISOString(),
          url: a.url,
          statusCode: a.statusCode,
          error: a.error,
          durationMs: a.durationMs,
          responseExcerpt: a.responseExcerpt,
        })),
    })),
    nextCursor: rows.length > q.limit ? String(page[page.length - 1].d.queueSeq) : null,
  };
}

/**
 * Queues a delivered or dropped event again, at the back of the tenant's queue, with the same
 * `eventId` and a fresh count of 8 attempts. Its attempts so far stay in the log.
 */
export async function redeliver({ db, actor }: MemberCtx, eventId: string): Promise<z.infer<typeof RedeliverySchema>> {
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .select()
      .from(eventDeliveries)
      .where(and(eq(eventDeliveries.eventId, eventId), eq(eventDeliveries.tenantId, actor.tenantId)))
      .for("update");
    if (!row) throw notFound(`No delivery of event ${eventId} in this tenant.`);
    if (row.state === "pending") throw conflict(`Event ${eventId} is still queued for delivery.`);
    await tx.execute(sql`
      update event_deliveries set state = 'pending', failures = 0, next_attempt_at = now(), finished_at = null,
        locked_until = null, locked_by = null,
        queue_seq = nextval(pg_get_serial_sequence('event_deliveries', 'queue_seq'))
      where event_id = ${eventId} and tenant_id = ${actor.tenantId}`);
    return { eventId, state: "pending" as const };
  });
}
