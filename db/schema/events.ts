import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/**
 * Transactional outbox. A row is written in the same transaction as the change it describes,
 * with the envelope fields of spec 2 §2.10 fixed at that moment; delivery reads this table in
 * `seq` order per tenant.
 */
export const events = pgTable(
  "events",
  {
    /** `eventId` of the envelope (UUID form), stable across delivery retries. */
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    eventName: text("event_name").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    userId: uuid("user_id"),
    /** Entity-specific payload: the envelope's `data.data`. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Previous row on updates: the envelope's `data.old`. */
    old: jsonb("old").$type<Record<string, unknown> | null>(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("events_tenant_seq_idx").on(t.tenantId, t.seq)],
);

export type EventRow = typeof events.$inferSelect;
