import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { parentRef } from "./columns";
import { messagingChannels } from "./messaging";
import { shareLinks } from "./share";
import { sites } from "./sites";
import { tenants } from "./tenants";

/**
 * A visitor's web-chat session: one conversation (`chatId`) of a web-chat channel, opened from one
 * site or one share link. Only the SHA-256 of the session token is kept; a token opens its own
 * conversation, from the place it was opened on, until `expiresAt` (30 days after its last message).
 */
export const webChatSessions = pgTable(
  "web_chat_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    siteId: uuid("site_id").references(() => sites.id, { onDelete: "cascade" }),
    shareLinkId: uuid("share_link_id").references(() => shareLinks.id, { onDelete: "cascade" }),
    chatId: text("chat_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    name: text("name"),
    phone: text("phone"),
    email: text("email"),
    consent: boolean("consent").notNull().default(false),
    pageUrl: text("page_url"),
    listingId: uuid("listing_id"),
    locale: text("locale"),
    /** The lead the visitor's contact became (with consent), processed like a lead form's. */
    inboundLeadId: uuid("inbound_lead_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("web_chat_sessions_token_key").on(t.tokenHash),
    uniqueIndex("web_chat_sessions_chat_key").on(t.channelId, t.chatId),
    index("web_chat_sessions_lead_idx").on(t.inboundLeadId),
    index("web_chat_sessions_tenant_idx").on(t.tenantId, t.createdAt),
  ],
);

export type WebChatSessionRow = typeof webChatSessions.$inferSelect;
