import { and, eq, or } from "drizzle-orm";
import { messagingChatPrivacy, messagingConversations, type MessagingChannelRow, type MessagingConversationRow } from "../../../db/schema";
import type { MemberCtx } from "../../context/verb-context";
import { accessibleChannelById, channelRefusal } from "../access";
import { maskHandle, phoneDigitsOf } from "../chat-id";
import { emailAddressOfChatId } from "../email/address";
import { effectivePrivacy } from "../chat-privacy";
import { chatOptOutHandle, dealContactOptedOut, isOptedOut } from "../opt-outs";
import { webChatVisitorPhone } from "../web-chat/visitor-phone";
import type { AckReason, AckStatus } from "./ack";

export type SendMode = "reply" | "send";

export type GatesPassed = {
  ok: true;
  channel: MessagingChannelRow;
  /** The stored conversation; null for a first proactive send to a phone-form chat id. */
  conversation: MessagingConversationRow | null;
  /** The chat id as the list keys it (the phone form when known). */
  chatId: string;
  handle: string;
};
export type GatesRefused = { ok: false; gate: string; status: Exclude<AckStatus, "sent" | "queued">; reason: AckReason; handle: string | null };
export type GateResult = GatesPassed | GatesRefused;

const refuse = (gate: string, status: GatesRefused["status"], reason: AckReason, handle: string | null = null): GatesRefused => ({
  ok: false,
  gate,
  status,
  reason,
  handle,
});

/**
 * The outbound gates of spec 1 §5.5, in order, for one chat: `channel_access_grant`,
 * `chat_privacy_mode`, `outreach_safety`. (`send_idempotency` is the send verb's, after these.)
 * Reads only; safe to call at any time (the scheduled sends call it again at fire time).
 *
 * - channel_access_grant: the member owns the channel or holds a grant, the channel is of the
 *   tenant and not a mock. Else `forbidden` (`channel_forbidden` for a channel of the tenant,
 *   `not_found_or_inaccessible` otherwise: nothing about the chat is said).
 * - chat_privacy_mode: on a whitelist channel only whitelisted chats; a pending chat is `blocked`
 *   `privacy_pending_approval`, a hidden or unknown one `blocked` `privacy_denied`; on a channel
 *   without privacy a chat marked hidden is `privacy_denied`.
 * - the conversation: a reply needs a stored one; a proactive send may open one to a phone-form
 *   id (`<digits>@c.us`). Else `rejected` `not_found_or_inaccessible`.
 * - outreach_safety: the chat's phone must not be on the tenant's opt-out list (`blocked`
 *   `opt_out`); a contact chat without a known phone cannot be checked (`blocked`
 *   `outreach_unverifiable`). Groups have no phone and pass. E-mail chats are checked by their
 *   address (an e-mail channel may also open a thread to a new address), Instagram/Messenger chats
 *   by the chat itself and by the contacts of the deal they are linked to.
 */
export async function evaluateSendGates(ctx: MemberCtx, target: { channelId: string; chatId: string; mode: SendMode }): Promise<GateResult> {
  const channel = await accessibleChannelById(ctx.db, ctx.actor, target.channelId);
  if (!channel) {
    return refuse("channel_access_grant", "forbidden", await channelRefusal(ctx.db, ctx.actor, target.channelId));
  }

  // The list's chatId is the phone form when known; an @lid id sent by an integrator finds its record too.
  const [conversation] = await ctx.db
    .select()
    .from(messagingConversations)
    .where(
      and(
        eq(messagingConversations.tenantId, ctx.tenantId),
        eq(messagingConversations.channelId, channel.id),
        or(eq(messagingConversations.chatId, target.chatId), eq(messagingConversations.lid, target.chatId)),
      ),
    )
    .orderBy(messagingConversations.createdAt)
    .limit(1);
  // A new e-mail thread is keyed by the address in lower case, as inbound mail is.
  const chatId = conversation?.chatId ?? (channel.transport === "email" ? (emailAddressOfChatId(target.chatId) ?? target.chatId) : target.chatId);

  const [p] = await ctx.db
    .select({ state: messagingChatPrivacy.state })
    .from(messagingChatPrivacy)
    .where(and(eq(messagingChatPrivacy.tenantId, ctx.tenantId), eq(messagingChatPrivacy.channelId, channel.id), eq(messagingChatPrivacy.chatId, chatId)))
    .limit(1);
  const privacy = effectivePrivacy(channel.privacyMode, p?.state);
  if (privacy === "hidden") return refuse("chat_privacy_mode", "blocked", "privacy_denied");
  const handle = conversation?.handleMasked ?? maskHandle(chatId);
  if (privacy === "pending") return refuse("chat_privacy_mode", "blocked", "privacy_pending_approval", handle);

  // An e-mail channel may open a thread to an address; the others to a phone-form id; a web chat
  // is opened by its visitor only (there is no chat id to start one with).
  const address = channel.transport === "email" ? emailAddressOfChatId(chatId) : null;
  const opensNew = channel.transport === "email" ? address !== null : channel.transport !== "web_chat" && phoneDigitsOf(chatId) !== null;
  if (!conversation && (target.mode === "reply" || !opensNew)) return refuse("conversation", "rejected", "not_found_or_inaccessible");

  if (channel.transport === "email") {
    if (!address) return refuse("outreach_safety", "blocked", "outreach_unverifiable", handle);
    if (await isOptedOut(ctx.db, ctx.tenantId, address)) return refuse("outreach_safety", "blocked", "opt_out", handle);
  } else if (channel.transport === "web_chat") {
    // The visitor wrote first, on the agency's own page; a phone they left is still checked against the opt-outs.
    const phone = await webChatVisitorPhone(ctx.db, channel.id, chatId);
    if (phone && (await isOptedOut(ctx.db, ctx.tenantId, phone))) return refuse("outreach_safety", "blocked", "opt_out", handle);
  } else if (channel.provider === "meta") {
    // Instagram/Messenger chats are page-scoped ids with no phone or address: the list holds the
    // chat itself (added by a member, or by an opt-out word), and a chat linked to a deal is its
    // contact's, whose phone or address may be on the list. The person wrote to the page first (no
    // proactive send opens one) and Meta enforces its reply window.
    if (await isOptedOut(ctx.db, ctx.tenantId, chatOptOutHandle(channel.id, chatId))) return refuse("outreach_safety", "blocked", "opt_out", handle);
    if (conversation?.primaryDealId && (await dealContactOptedOut(ctx.db, ctx.tenantId, conversation.primaryDealId)))
      return refuse("outreach_safety", "blocked", "opt_out", handle);
  } else if (!chatId.endsWith("@g.us")) {
    const digits = phoneDigitsOf(chatId);
    if (!digits) return refuse("outreach_safety", "blocked", "outreach_unverifiable", handle);
    if (await isOptedOut(ctx.db, ctx.tenantId, `+${digits}`)) return refuse("outreach_safety", "blocked", "opt_out", handle);
  }
  return { ok: true, channel, conversation: conversation ?? null, chatId, handle };
}
