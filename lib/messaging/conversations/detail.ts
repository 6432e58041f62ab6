import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { messagingChannels, messagingConversations, type MessagingChannelRow, type MessagingConversationRow } from "../../../db/schema";
import { preparedOn } from "../../../db/prepared";
import type { MemberCtx } from "../../context/verb-context";
import { accessibleChannel } from "../access";
import { ChatIdSchema } from "../chat-id";
import { effectivePrivacy } from "../chat-privacy";
import { readHistory, UNAVAILABLE_REASONS } from "../history/read-history";
import { WEB_CHAT_PROVIDER } from "../web-chat/create-channel";
import { storedHistory, webChatOrigin } from "../web-chat/member-history";
import { WebChatOriginSchema } from "../web-chat/origin";
import { authorsOf } from "./authors";
import { readPolicy, ReadPolicySchema } from "./policy";
import { ConversationSchema, presentConversation } from "./present";
import { boolParam, LimitParam } from "./query-params";

export const DetailQuery = z
  .strictObject({
    channelId: z.uuid().transform((v) => v.toLowerCase()),
    chatId: ChatIdSchema,
    limit: LimitParam.default(30),
    before: z.iso
      .datetime({ offset: true })
      .transform((v) => new Date(v))
      .optional()
      .meta({ description: "Keyset: only messages strictly older than this instant (echo `history.nextBefore`)." }),
    includeHistory: boolParam.default(true),
  })
  .meta({ id: "ConversationDetailQuery" });

export const REJECTIONS = ["not_found_or_inaccessible", "channel_forbidden", "privacy_restricted"] as const;
export type Rejection = (typeof REJECTIONS)[number];

export const HistoryMessageSchema = z
  .object({
    id: z.string(),
    direction: z.enum(["inbound", "outbound"]),
    at: z.string(),
    messageType: z.string().meta({ example: "text" }),
    text: z.string().nullable().meta({ description: "Null for chats pending privacy approval." }),
    authorId: z.uuid().nullable().meta({ description: "The CRM member who sent it through the service; null for inbound, old and phone-app messages." }),
    authorName: z.string().nullable().meta({ description: "Directory name when `authorId` is set, else the provider's push name." }),
    media: z
      .object({ kind: z.string(), mimeType: z.string().nullable(), available: z.boolean() })
      .nullable()
      .meta({ description: "A descriptor only: never a URL, token or bytes." }),
  })
  .meta({ id: "HistoryMessage" });

export const HistorySchema = z
  .object({
    source: z.enum(["provider_feed", "service"]).meta({
      description: "`provider_feed`: read live from the channel's gateway. `service`: the service is the provider (web chat) and the history is its own store.",
    }),
    checkedAt: z.string(),
    unavailableReason: z.enum(UNAVAILABLE_REASONS).nullable(),
    retryable: z.boolean(),
    retryAfterSeconds: z.number().nullable(),
    messages: z.array(HistoryMessageSchema),
    hasMore: z.boolean(),
    nextBefore: z.string().nullable(),
  })
  .meta({ id: "ConversationHistory" });

/** The answer of `conversationDetail`. */
export const ConversationDetailSchema = z
  .object({
    policy: ReadPolicySchema,
    conversation: ConversationSchema.nullable(),
    rejection: z.enum(REJECTIONS).nullable(),
    history: HistorySchema.nullable().meta({ description: "Null with `includeHistory=false` or a rejection." }),
    origin: WebChatOriginSchema.nullable().meta({ description: "Where a web chat started (null for other transports and rejections)." }),
  })
  .meta({ id: "ConversationDetail" });

type Access =
  | { ok: true; channel: MessagingChannelRow; conversation: MessagingConversationRow; privacyState: string | null }
  | { ok: false; rejection: Rejection };

/**
 * The read gates for one conversation, shared by detail, resync, reply and send: the channel must
 * be accessible (else `channel_forbidden` for a channel of the tenant, `not_found_or_inaccessible`
 * otherwise), the chat must exist on it, and a hidden chat is `privacy_restricted`. Nothing in a
 * rejection names the chat.
 */
export async function conversationAccess(ctx: MemberCtx, channelId: string, chatId: string): Promise<Access> {
  // The channel and the chat's record in one read (a round trip and a statement less on every
  // detail, and on every agent execution's first read: issue 34), built once per database (`preparedOn`).
  const [row] = await preparedOn(ctx.db, "conversation-access", (db, name) =>
    db
      .select({ channel: messagingChannels, conversation: messagingConversations })
      .from(messagingChannels)
      .leftJoin(
        messagingConversations,
        and(
          eq(messagingConversations.tenantId, sql.placeholder("tenantId")),
          eq(messagingConversations.channelId, messagingChannels.id),
          eq(messagingConversations.chatId, sql.placeholder("chatId")),
        ),
      )
      .where(
        and(
          eq(messagingChannels.id, sql.placeholder("channelId")),
          accessibleChannel({ tenantId: sql.placeholder("actorTenantId"), userId: sql.placeholder("userId") }),
        ),
      )
      .limit(1)
      .prepare(name),
  ).execute({ tenantId: ctx.tenantId, chatId, channelId, actorTenantId: ctx.actor.tenantId, userId: ctx.actor.userId });
  const channel = row?.channel;
  if (!channel) {
    const [exists] = await ctx.db
      .select({ id: messagingChannels.id })
      .from(messagingChannels)
      .where(and(eq(messagingChannels.id, channelId), eq(messagingChannels.tenantId, ctx.tenantId), eq(messagingChannels.mock, false)))
      .limit(1);
    return { ok: false, rejection: exists ? "channel_forbidden" : "not_found_or_inaccessible" };
  }
  const conversation = row.conversation;
  if (!conversation) return { ok: false, rejection: "not_found_or_inaccessible" };
  // The record carries its privacy entry (kept with the privacy list in the same transaction).
  if (effectivePrivacy(channel.privacyMode, conversation.privacyState) === "hidden") return { ok: false, rejection: "privacy_restricted" };
  return { ok: true, channel, conversation, privacyState: conversation.privacyState };
}

/** `GET /api/v1/messaging/conversations/detail`: the stored state plus one page of live history. */
export async function conversationDetail(ctx: MemberCtx, q: z.output<typeof DetailQuery>): Promise<z.infer<typeof ConversationDetailSchema>> {
  const policy = readPolicy([]);
  const access = await conversationAccess(ctx, q.channelId, q.chatId);
  if (!access.ok) return { policy, conversation: null, rejection: access.rejection, history: null, origin: null };
  const conversation = presentConversation(access.conversation, access.channel, access.privacyState);
  const redacted = conversation.privacy.reason === "privacy_pending_approval";
  if (access.channel.provider === WEB_CHAT_PROVIDER) {
    const origin = await webChatOrigin(ctx.db, access.channel.id, access.conversation.chatId);
    const history = q.includeHistory
      ? await storedHistory(ctx.db, access.channel.id, access.conversation.chatId, { limit: q.limit, before: q.before, redacted })
      : null;
    return { policy, conversation, rejection: null, history, origin };
  }
  if (!q.includeHistory) return { policy, conversation, rejection: null, history: null, origin: null };
  const page = await readHistory(access.channel, access.conversation.feedChatId ?? access.conversation.chatId, {
    limit: q.limit,
    before: q.before,
    lastActivityAt: access.conversation.lastActivityAt,
  });
  const checkedAt = new Date().toISOString();
  if (!page.ok) {
    return {
      policy,
      conversation,
      rejection: null,
      history: {
        source: "provider_feed",
        checkedAt,
        unavailableReason: page.reason,
        retryable: page.retryable,
        retryAfterSeconds: page.retryAfterSeconds,
        messages: [],
        hasMore: false,
        nextBefore: null,
      },
      origin: null,
    };
  }
  const authors = await authorsOf(
    ctx.db,
    access.channel.id,
    page.messages.filter((m) => m.fromMe).map((m) => m.id),
  );
  const messages = page.messages.map((m): z.infer<typeof HistoryMessageSchema> => {
    const authorId = m.fromMe ? (authors.get(m.id)?.authorId ?? null) : null;
    const authorName = authorId ? (authors.get(m.id)?.name ?? null) : m.pushName;
    return {
      id: m.id,
      direction: m.fromMe ? "outbound" : "inbound",
      at: new Date(m.timestamp * 1000).toISOString(),
      messageType: m.type,
      text: redacted ? null : m.text,
      authorId: redacted ? null : authorId,
      authorName: redacted ? null : authorName,
      media: m.media ? { kind: m.media.kind, mimeType: m.media.mimeType, available: m.media.available } : null,
    };
  });
  return {
    policy,
    conversation,
    rejection: null,
    history: {
      source: "provider_feed",
      checkedAt,
      unavailableReason: null,
      retryable: false,
      retryAfterSeconds: null,
      messages,
      hasMore: page.hasMore,
      nextBefore: page.nextBefore,
    },
    origin: null,
  };
}
