import { and, eq, sql } from "drizzle-orm";
import {
  messagingChannels,
  messagingChatPrivacy,
  messagingConversations,
  messagingOptOuts,
  type MessagingChannelRow,
  type MessagingConversationRow,
} from "../../../db/schema";
import type { MemberCtx } from "../../context/verb-context";
import { preparedOn } from "../../../db/prepared";
import { accessibleChannel, channelRefusal } from "../access";
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
  // The channel, the chat's record, its privacy entry and (for a phone chat) the opt-out of its
  // phone in one read instead of four in series: the gates below still decide in their order, on
  // what was read together. Each read is a round trip and CPU on every send (an agent's reply
  // included: issue 34, "Agent CPU a step" in docs/decisions.md), built once per database (`preparedOn`).
  const targetPhone = phoneDigitsOf(target.chatId);
  const [row] = await preparedOn(ctx.db, targetPhone ? "send-gates-phone" : "send-gates", (db, name) => {
    const p = { tenantId: sql.placeholder("tenantId"), userId: sql.placeholder("userId"), chatId: sql.placeholder("chatId") };
    return db
      .select({
        channel: messagingChannels,
        conversation: messagingConversations,
        privacy: messagingChatPrivacy.state,
        targetOptedOut: targetPhone
          ? sql<boolean>`exists (select 1 from ${messagingOptOuts} where ${and(eq(messagingOptOuts.tenantId, p.tenantId), eq(messagingOptOuts.phone, sql.placeholder("optOutPhone")))})`
          : sql<boolean>`false`,
      })
      .from(messagingChannels)
      .leftJoin(
        messagingConversations,
        // The list's chatId is the phone form when known; an @lid id sent by an integrator finds its record too.
        eq(
          messagingConversations.id,
          sql`(select v.id from ${messagingConversations} v where v.tenant_id = ${p.tenantId} and v.channel_id = ${messagingChannels.id} and (v.chat_id = ${p.chatId} or v.lid = ${p.chatId}) order by v.created_at limit 1)`,
        ),
      )
      .leftJoin(
        messagingChatPrivacy,
        and(
          eq(messagingChatPrivacy.tenantId, p.tenantId),
          eq(messagingChatPrivacy.channelId, messagingChannels.id),
          eq(messagingChatPrivacy.chatId, sql`coalesce(${messagingConversations.chatId}, ${p.chatId})`),
        ),
      )
      .where(and(eq(messagingChannels.id, sql.placeholder("channelId")), accessibleChannel({ tenantId: sql.placeholder("actorTenantId"), userId: p.userId })))
      .limit(1)
      .prepare(name);
  }).execute({
    tenantId: ctx.tenantId,
    actorTenantId: ctx.actor.tenantId,
    userId: ctx.actor.userId,
    chatId: target.chatId,
    channelId: target.channelId,
    optOutPhone: targetPhone ? `+${targetPhone}` : null,
  });
  const channel = row?.channel;
  if (!channel) {
    return refuse("channel_access_grant", "forbidden", await channelRefusal(ctx.db, ctx.actor, target.channelId));
  }
  const conversation = row.conversation;
  // A new e-mail thread is keyed by the address in lower case, as inbound mail is.
  const chatId = conversation?.chatId ?? (channel.transport === "email" ? (emailAddressOfChatId(target.chatId) ?? target.chatId) : target.chatId);
  // The privacy entry was read for the record's chat id or the one given; a new e-mail thread's key differs.
  const p = chatId === (conversation?.chatId ?? target.chatId) ? { state: row.privacy } : await privacyEntry(ctx, channel.id, chatId);
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
    // The read above checked the phone of the chat id given; the record's may be another (an @lid id given).
    const optedOut = digits === targetPhone ? row.targetOptedOut : await isOptedOut(ctx.db, ctx.tenantId, `+${digits}`);
    if (optedOut) return refuse("outreach_safety", "blocked", "opt_out", handle);
  }
  return { ok: true, channel, conversation: conversation ?? null, chatId, handle };
}

async function privacyEntry(ctx: MemberCtx, channelId: string, chatId: string): Promise<{ state: string | null }> {
  const [p] = await ctx.db
    .select({ state: messagingChatPrivacy.state })
    .from(messagingChatPrivacy)
    .where(and(eq(messagingChatPrivacy.tenantId, ctx.tenantId), eq(messagingChatPrivacy.channelId, channelId), eq(messagingChatPrivacy.chatId, chatId)))
    .limit(1);
  return { state: p?.state ?? null };
}
