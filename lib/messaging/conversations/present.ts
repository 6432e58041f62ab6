import { z } from "zod";
import type { MessagingChannelRow, MessagingConversationRow } from "../../../db/schema";
import { effectivePrivacy } from "../chat-privacy";
import { CONNECTION_STATES, TRANSPORTS } from "../providers/types";

/** One conversation item of spec 1 §2.5. */
export const ConversationSchema = z
  .object({
    key: z.object({ channelId: z.uuid(), chatId: z.string() }),
    channel: z.object({ id: z.uuid(), name: z.string(), transport: z.enum(TRANSPORTS), connectionState: z.enum(CONNECTION_STATES) }),
    participant: z.object({
      displayName: z.string().nullable(),
      handleMasked: z.string().meta({ description: "Country code, masked digits, last four digits.", example: "+55 •••••••4321" }),
      kind: z.enum(["contact", "group"]),
    }),
    lastActivity: z.object({
      at: z.string(),
      preview: z.string().nullable().meta({ description: "Null for chats pending privacy approval." }),
      fromMe: z.boolean(),
    }),
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

type Transport = (typeof TRANSPORTS)[number];
type ConnectionState = (typeof CONNECTION_STATES)[number];

/**
 * One conversation item of spec 1 §2.5, built field by field from the record (never from a
 * provider payload). A chat pending privacy approval keeps its place in the list without its preview.
 */
export function presentConversation(
  row: MessagingConversationRow,
  channel: MessagingChannelRow,
  privacyState: string | null,
): z.infer<typeof ConversationSchema> {
  const privacy = effectivePrivacy(channel.privacyMode, privacyState);
  const pending = privacy === "pending";
  return {
    key: { channelId: row.channelId, chatId: row.chatId },
    // The columns are text; writes store only these values (as in the channel inventory).
    channel: { id: channel.id, name: channel.name, transport: channel.transport as Transport, connectionState: channel.connectionState as ConnectionState },
    participant: { displayName: row.displayName, handleMasked: row.handleMasked, kind: row.kind as "contact" | "group" },
    lastActivity: { at: row.lastActivityAt.toISOString(), preview: pending ? null : row.lastPreview, fromMe: row.lastFromMe },
    readState: { unreadCount: row.unreadCount, isRead: row.unreadCount === 0, awaitingReply: row.awaitingReply },
    privacy: {
      state: privacy === "pending" ? "pending" : privacyState === "whitelisted" ? "whitelisted" : "open",
      reason: pending ? "privacy_pending_approval" : null,
      channelPrivacyEnabled: channel.privacyMode === "whitelist",
    },
    assignment: { status: "open", assignedToType: row.assignedToId ? "member" : null, assignedToId: row.assignedToId, queueId: null },
    links: { customerId: row.customerId, primaryDealId: row.primaryDealId },
    pinnedAt: row.pinnedAt?.toISOString() ?? null,
  };
}

export type ConversationItem = ReturnType<typeof presentConversation>;
