import type { MessagingChannelRow, MessagingConversationRow } from "../../../db/schema";
import { effectivePrivacy } from "../chat-privacy";

/**
 * One conversation item of spec 1 §2.5, built field by field from the record (never from a
 * provider payload). A chat pending privacy approval keeps its place in the list without its preview.
 */
export function presentConversation(row: MessagingConversationRow, channel: MessagingChannelRow, privacyState: string | null) {
  const privacy = effectivePrivacy(channel.privacyMode, privacyState);
  const pending = privacy === "pending";
  return {
    key: { channelId: row.channelId, chatId: row.chatId },
    channel: { id: channel.id, name: channel.name, transport: channel.transport, connectionState: channel.connectionState },
    participant: { displayName: row.displayName, handleMasked: row.handleMasked, kind: row.kind },
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
