import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { parentRef } from "./columns";
import { messagingChannels } from "./messaging";
import { tenants } from "./tenants";

/**
 * Messages of the transports whose history the service itself keeps (web chat: the service is the
 * provider). WhatsApp history stays on the gateway (read live); these rows are that feed for ours.
 * `seq` orders a conversation: rows are written inside the tenant's transaction (its row lock), so
 * within a tenant a later commit always has a larger `seq` and a reader polling `seq > n` misses none.
 */
export const messagingMessages = pgTable(
  "messaging_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    chatId: text("chat_id").notNull(),
    direction: text("direction").$type<"inbound" | "outbound">().notNull(),
    messageType: text("message_type").notNull().default("text"),
    text: text("text"),
    /** The member who typed an outbound message; null for the visitor's. */
    authorId: uuid("author_id"),
    /** The sender's own id of the message (a visitor's `clientMessageId`): a resend stores nothing new. */
    clientMessageId: text("client_message_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("messaging_messages_chat_idx").on(t.channelId, t.chatId, t.seq),
    uniqueIndex("messaging_messages_client_key").on(t.channelId, t.chatId, t.clientMessageId).where(sql`client_message_id IS NOT NULL`),
  ],
);

export type MessagingMessageRow = typeof messagingMessages.$inferSelect;
