import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { events } from "./events";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/** A tenant's outbound webhook (developer settings). One per tenant. */
export const webhookSettings = pgTable("webhook_settings", {
  tenantId: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  url: text("url"),
  events: text("events").array().notNull().default(sql`'{}'::text[]`),
  hmac: boolean("hmac").notNull().default(false),
  bearer: boolean("bearer").notNull().default(false),
  /** 32 random bytes, base64url. Sent as-is in Bearer mode, so it is kept, not hashed. */
  secret: text("secret"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const deliveryState = pgEnum("delivery_state", ["pending", "delivered", "dropped"]);

/**
 * The delivery queue: one row per event to deliver. A tenant's queue is served in `queueSeq`
 * order; the head is claimed with a lease (`lockedUntil`) so two workers never attempt it at once,
 * and a worker that dies mid-attempt only delays it until the lease runs out.
 */
export const eventDeliveries = pgTable(
  "event_deliveries",
  {
    eventId: uuid("event_id")
      .primaryKey()
      .references(() => events.id, { onDelete: "cascade" }),
    tenantId: parentRef("tenant_id", () => tenants.id),
    queueSeq: bigserial("queue_seq", { mode: "number" }).notNull(),
    state: deliveryState("state").notNull().default("pending"),
    /** Failed attempts since it was (re)queued; the 8th failure drops it. */
    failures: integer("failures").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lockedBy: text("locked_by"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("event_deliveries_pending_idx").on(t.tenantId, t.queueSeq).where(sql`${t.state} = 'pending'`),
    index("event_deliveries_tenant_seq_idx").on(t.tenantId, t.queueSeq),
  ],
);

/**
 * One row per HTTP attempt: the delivery log. No foreign keys: their per-row checks (each locking
 * the event's and the tenant's row) were the largest part of recording a batch of outcomes. A
 * trigger on `events` (migration 0049) deletes the log of deleted events, as their cascade did;
 * a tenant's deletion reaches it through its events.
 */
export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull(),
    eventId: uuid("event_id").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    url: text("url").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    responseExcerpt: text("response_excerpt"),
  },
  (t) => [index("delivery_attempts_event_idx").on(t.tenantId, t.eventId, t.at)],
);

export type WebhookSettingsRow = typeof webhookSettings.$inferSelect;
export type EventDeliveryRow = typeof eventDeliveries.$inferSelect;
