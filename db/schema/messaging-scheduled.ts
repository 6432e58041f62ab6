import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { members } from "./members";
import { messagingChannels } from "./messaging";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/**
 * An outbound message to send later, made through the tool interface (`schedule_message`). It
 * fires once: a worker claims it (`claimed_at`, lease) with SKIP LOCKED when `send_at` is due and
 * sends through the same send verb as `POST /messaging/send`, so the gates are checked again then.
 * `status`: `scheduled`, `sent`, `blocked` (a gate refused at fire time, `reason` says which),
 * `cancelled`, `failed` (the gateway did not take it, `reason` says why).
 */
export const messagingScheduledMessages = pgTable(
  "messaging_scheduled_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    chatId: text("chat_id").notNull(),
    /** Exactly one of `text` and `template_id`. */
    text: text("text"),
    templateId: uuid("template_id"),
    dealId: uuid("deal_id"),
    sendAt: timestamp("send_at", { withTimezone: true }).notNull(),
    status: text("status").notNull().default("scheduled"),
    reason: text("reason"),
    /** The member the key acted as: the send fires as this member, with the grants it has then. */
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    /** The API key that scheduled it: idempotency is per key (as REST sends), and a revoked key's schedules do not fire. */
    apiKeyId: uuid("api_key_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** Provider message id once sent. */
    messageId: text("message_id"),
    /** The ack of the send at fire time, as `POST /messaging/send` answers it. */
    ack: jsonb("ack").$type<Record<string, unknown>>(),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    firedAt: timestamp("fired_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("messaging_scheduled_idempotency_key").on(t.tenantId, t.apiKeyId, t.idempotencyKey),
    index("messaging_scheduled_due_idx").on(t.sendAt).where(sql`status = 'scheduled'`),
    index("messaging_scheduled_tenant_idx").on(t.tenantId, t.sendAt, t.id),
  ],
);

export type MessagingScheduledRow = typeof messagingScheduledMessages.$inferSelect;
