import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { members } from "./members";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/**
 * A broker's messaging account (a WhatsApp number, an inbox) reached through a provider gateway.
 * The gateway's credentials and session name are one AES-GCM blob (`credentials`), never returned;
 * `webhookSecret` is the HMAC key the gateway signs its webhooks with, encrypted the same way.
 */
export const messagingChannels = pgTable(
  "messaging_channels",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    name: text("name").notNull(),
    transport: text("transport").notNull(),
    provider: text("provider").notNull(),
    baseUrl: text("base_url").notNull(),
    /** `v1.<iv>.<tag>.<ciphertext>` of `{apiKey, sessionName}` (lib/messaging/secret-box.ts). */
    credentials: text("credentials").notNull(),
    webhookSecret: text("webhook_secret").notNull(),
    /** Path token of `POST /api/webhooks/messaging/{channelToken}`. */
    channelToken: text("channel_token").notNull(),
    ownerId: uuid("owner_id").references(() => members.id, { onDelete: "set null" }),
    privacyMode: text("privacy_mode").notNull().default("off"),
    mock: boolean("mock").notNull().default(false),
    connectionState: text("connection_state").notNull().default("draft"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("messaging_channels_tenant_idx").on(t.tenantId, t.createdAt), uniqueIndex("messaging_channels_token_key").on(t.channelToken)],
);

/** Members (besides the owner) who may read and write a channel's conversations. */
export const messagingChannelGrants = pgTable(
  "messaging_channel_grants",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    memberId: parentRef("member_id", () => members.id),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.memberId] }), index("messaging_grants_member_idx").on(t.tenantId, t.memberId)],
);

/** The chat privacy list of a channel: `whitelisted`, `pending` or `hidden` per chat id. */
export const messagingChatPrivacy = pgTable(
  "messaging_chat_privacy",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    chatId: text("chat_id").notNull(),
    state: text("state").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.chatId] }), index("messaging_privacy_tenant_idx").on(t.tenantId)],
);

/** Phones (E.164 digits) that asked not to be contacted: the `outreach_safety` gate reads this. */
export const messagingOptOuts = pgTable(
  "messaging_opt_outs",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    phone: text("phone").notNull(),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.phone] })],
);

/**
 * The stored state of a conversation (spec 1 §4.3: state comes from the record, history is live).
 * One per channel and chat id in the phone form when known.
 */
export const messagingConversations = pgTable(
  "messaging_conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    chatId: text("chat_id").notNull(),
    /** The `@lid` id the chat also arrived under, when the gateway uses one. */
    lid: text("lid"),
    /** The id whose gateway feed holds the messages when it is not `chatId` (set by resync). */
    feedChatId: text("feed_chat_id"),
    displayName: text("display_name"),
    handleMasked: text("handle_masked").notNull(),
    kind: text("kind").notNull().default("contact"),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull(),
    lastPreview: text("last_preview"),
    lastFromMe: boolean("last_from_me").notNull().default(false),
    lastMessageId: text("last_message_id"),
    unreadCount: integer("unread_count").notNull().default(0),
    awaitingReply: boolean("awaiting_reply").notNull().default(false),
    labels: jsonb("labels").$type<string[]>().notNull().default([]),
    /**
     * The chat's entry on the privacy list (`whitelisted`, `pending`, `hidden`, null for none), a
     * copy kept with `messaging_chat_privacy` in the same transactions, so the list filters and
     * counts by privacy on one indexed table instead of joining per request.
     */
    privacyState: text("privacy_state"),
    assignedToId: uuid("assigned_to_id"),
    customerId: uuid("customer_id"),
    primaryDealId: uuid("primary_deal_id"),
    pinnedAt: timestamp("pinned_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("messaging_conversations_chat_key").on(t.channelId, t.chatId),
    index("messaging_conversations_activity_idx").on(t.tenantId, t.lastActivityAt.desc(), t.id.desc()),
    index("messaging_conversations_channel_idx").on(t.channelId, t.lastActivityAt.desc(), t.id.desc()),
    index("messaging_conversations_privacy_idx").on(t.channelId, t.privacyState),
    index("messaging_conversations_unread_idx").on(t.tenantId, sql`(${t.unreadCount} > 0) DESC NULLS LAST`, t.lastActivityAt.desc(), t.id.desc()),
  ],
);

/** Gateway webhooks as received (verified), before processing: what we answered 200 for is here. */
export const messagingInboundEvents = pgTable(
  "messaging_inbound_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    event: text("event").notNull(),
    body: text("body").notNull(),
    status: text("status").notNull().default("received"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [index("messaging_inbound_pending_idx").on(t.receivedAt).where(sql`status IN ('received', 'processing')`)],
);

/** Messages sent through the service: who typed them (`authorId`), matched to history by provider id. */
export const messagingSentMessages = pgTable(
  "messaging_sent_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    chatId: text("chat_id").notNull(),
    providerMessageId: text("provider_message_id").notNull(),
    authorId: uuid("author_id"),
    kind: text("kind").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("messaging_sent_provider_key").on(t.channelId, t.providerMessageId)],
);

/** Message ids already processed per channel: a webhook delivered twice (`message` and `message.any`) counts once. */
export const messagingSeenMessages = pgTable(
  "messaging_seen_messages",
  {
    channelId: parentRef("channel_id", () => messagingChannels.id),
    messageId: text("message_id").notNull(),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.messageId] })],
);

/**
 * The first ack of each idempotency key, per tenant and API key; `ack` null while the first send
 * runs. The primary key is the lock: two requests with one key cannot both insert (no check-then-insert).
 * `requestHash` tells a resend (same body) from a different request reusing a key.
 */
export const messagingSendKeys = pgTable(
  "messaging_send_keys",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    apiKeyId: uuid("api_key_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestHash: text("request_hash"),
    ack: jsonb("ack").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.apiKeyId, t.idempotencyKey] })],
);

/** A channel's labels as the gateway last reported them. */
export const messagingLabels = pgTable(
  "messaging_labels",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    labelId: text("label_id").notNull(),
    name: text("name").notNull(),
    color: text("color"),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.labelId] })],
);

/** Approved message templates of a WhatsApp Cloud channel. */
export const messagingTemplates = pgTable(
  "messaging_templates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    name: text("name").notNull(),
    language: text("language").notNull(),
    status: text("status").notNull().default("approved"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("messaging_templates_name_key").on(t.channelId, t.name, t.language)],
);

export type MessagingChannelRow = typeof messagingChannels.$inferSelect;
export type MessagingConversationRow = typeof messagingConversations.$inferSelect;

/**
 * E-mail messages the service itself keeps (an inbox reached by an inbound-parse webhook and SMTP
 * has no readable history): the detail's history reads these as the channel's feed. Apart from web
 * chat's `messaging_messages`: e-mail threads need the correspondent, subject key and references,
 * and dedupe on the `Message-ID`. `messageId` is the provider id (for e-mail the `Message-ID` without its angle
 * brackets): one row per channel and id, so a message delivered twice is stored once.
 */
export const messagingEmailMessages = pgTable(
  "messaging_email_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    chatId: text("chat_id").notNull(),
    messageId: text("message_id").notNull(),
    /** The other side's address (lower case): a thread is per correspondent. */
    correspondent: text("correspondent").notNull(),
    fromMe: boolean("from_me").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    type: text("type").notNull(),
    /** The new text of the message: quoted history and signature trimmed. */
    text: text("text"),
    senderName: text("sender_name"),
    subject: text("subject"),
    /** The subject without `Re:`/`Fwd:` prefixes, lower case: the fallback thread key. */
    subjectKey: text("subject_key"),
    /** Attachments as descriptors only (`{kind, mimeType, available}`), never bytes or URLs. */
    media: jsonb("media").$type<{ kind: string; mimeType: string | null; available: boolean }[]>().notNull().default([]),
    /** The `References` chain of this message (ids without brackets), for the headers of a reply. */
    references: jsonb("references").$type<string[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("messaging_email_messages_id_key").on(t.channelId, t.messageId),
    index("messaging_email_messages_chat_idx").on(t.channelId, t.chatId, t.at.desc()),
    index("messaging_email_messages_subject_idx").on(t.channelId, t.correspondent, t.subjectKey),
  ],
);

export type MessagingEmailMessageRow = typeof messagingEmailMessages.$inferSelect;
