import { z } from "zod";
import { UNAVAILABLE_REASONS } from "../messaging/history/read-history";
import { CONNECTION_STATES, TRANSPORTS } from "../messaging/providers/types";

/** Response shapes of `/api/v1/messaging` (spec 1 §2.5), for the description only. */
export const ReadPolicySchema = z
  .object({
    principal: z.string().meta({ example: "tenant_member" }),
    tenantScoped: z.boolean(),
    riskTier: z.literal("read"),
    mutates: z.literal(false),
    enforcedGates: z.array(z.string()).meta({ example: ["tenant_scope", "channel_access_grant", "chat_privacy_mode", "mock_channel_exclusion"] }),
    disabledReasons: z.array(z.string()).meta({ description: "`no_accessible_channels` when the key's member may use no channel (the list is then empty, not a 403)." }),
  })
  .meta({ id: "MessagingReadPolicy" });

export const ConversationSchema = z
  .object({
    key: z.object({ channelId: z.uuid(), chatId: z.string() }),
    channel: z.object({ id: z.uuid(), name: z.string(), transport: z.enum(TRANSPORTS), connectionState: z.enum(CONNECTION_STATES) }),
    participant: z.object({
      displayName: z.string().nullable(),
      handleMasked: z.string().meta({ description: "Country code, masked digits, last four digits.", example: "+55 •••••••4321" }),
      kind: z.enum(["contact", "group"]),
    }),
    lastActivity: z.object({ at: z.string(), preview: z.string().nullable().meta({ description: "Null for chats pending privacy approval." }), fromMe: z.boolean() }),
    readState: z.object({ unreadCount: z.number().int(), isRead: z.boolean(), awaitingReply: z.boolean() }),
    privacy: z.object({
      state: z.enum(["open", "whitelisted", "pending"]).meta({ description: "`open`: channel without privacy; `whitelisted`; `pending` (listed redacted)." }),
      reason: z.string().nullable().meta({ example: "privacy_pending_approval" }),
      channelPrivacyEnabled: z.boolean(),
    }),
    assignment: z.object({ status: z.literal("open"), assignedToType: z.string().nullable(), assignedToId: z.uuid().nullable(), queueId: z.uuid().nullable() }),
    links: z.object({ customerId: z.uuid().nullable(), primaryDealId: z.uuid().nullable() }),
    pinnedAt: z.string().nullable(),
  })
  .meta({ id: "Conversation" });

export const ConversationListSchema = z
  .object({
    policy: ReadPolicySchema,
    conversations: z.array(ConversationSchema),
    redaction: z.object({
      privacyFilteredCount: z.number().int().meta({ description: "Hidden chats (blacklisted, or unknown on a privacy channel) of the selected channels: absent, only counted." }),
      redactedCount: z.number().int().meta({ description: "Items of this page shown without preview (pending approval)." }),
    }),
    page: z.object({ returned: z.number().int(), hasMore: z.boolean(), nextCursor: z.string().nullable() }),
    scope: z.object({ accessibleChannelCount: z.number().int(), privacyEnabledChannelCount: z.number().int() }),
  })
  .meta({ id: "ConversationList" });

export const HistoryMessageSchema = z
  .object({
    id: z.string(),
    direction: z.enum(["inbound", "outbound"]),
    at: z.string(),
    messageType: z.string().meta({ example: "text" }),
    text: z.string().nullable().meta({ description: "Null for chats pending privacy approval." }),
    authorId: z.uuid().nullable().meta({ description: "The CRM member who sent it through the service; null for inbound, old and phone-app messages." }),
    authorName: z.string().nullable().meta({ description: "Directory name when `authorId` is set, else the provider's push name." }),
    media: z.object({ kind: z.string(), mimeType: z.string().nullable(), available: z.boolean() }).nullable().meta({ description: "A descriptor only: never a URL, token or bytes." }),
  })
  .meta({ id: "HistoryMessage" });

export const HistorySchema = z
  .object({
    source: z.literal("provider_feed"),
    checkedAt: z.string(),
    unavailableReason: z.enum(UNAVAILABLE_REASONS).nullable(),
    retryable: z.boolean(),
    retryAfterSeconds: z.number().nullable(),
    messages: z.array(HistoryMessageSchema),
    hasMore: z.boolean(),
    nextBefore: z.string().nullable(),
  })
  .meta({ id: "ConversationHistory" });

export const ConversationDetailSchema = z
  .object({
    policy: ReadPolicySchema,
    conversation: ConversationSchema.nullable(),
    rejection: z.enum(["not_found_or_inaccessible", "channel_forbidden", "privacy_restricted"]).nullable(),
    history: HistorySchema.nullable().meta({ description: "Null with `includeHistory=false` or a rejection." }),
  })
  .meta({ id: "ConversationDetail" });
