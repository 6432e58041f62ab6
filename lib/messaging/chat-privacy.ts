import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { messagingChannels, messagingChatPrivacy, messagingConversations } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { notFound } from "../errors/domain-errors";
import { itemsSchema } from "../schemas/paging";
import { ChatIdSchema } from "./chat-id";

export const PRIVACY_STATES = ["whitelisted", "pending", "hidden"] as const;
export type PrivacyState = (typeof PRIVACY_STATES)[number];

export const SetChatPrivacySchema = z.strictObject({ chatId: ChatIdSchema, state: z.enum(PRIVACY_STATES) }).meta({ id: "SetChatPrivacy" });
export const ChatPrivacyEntrySchema = z.object({ chatId: z.string(), state: z.enum(PRIVACY_STATES), updatedAt: z.string() }).meta({ id: "ChatPrivacyEntry" });

/** `listChatPrivacy`. */
export const ChatPrivacyListSchema = itemsSchema(ChatPrivacyEntrySchema);

async function assertChannel(ctx: MemberCtx, id: string) {
  const [c] = await ctx.db
    .select({ id: messagingChannels.id })
    .from(messagingChannels)
    .where(and(eq(messagingChannels.id, id), eq(messagingChannels.tenantId, ctx.tenantId)))
    .limit(1);
  if (!c) throw notFound(`Messaging channel ${id} not found.`);
}

/** `PUT .../{id}/chat-privacy`: one chat's state (chat ids go in bodies, never in paths). */
export async function setChatPrivacy(ctx: MemberCtx, { id, body }: { id: string; body: unknown }) {
  const data = SetChatPrivacySchema.parse(body);
  await assertChannel(ctx, id);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const now = new Date();
    await tx
      .insert(messagingChatPrivacy)
      .values({ tenantId: ctx.tenantId, channelId: id, chatId: data.chatId, state: data.state, updatedAt: now })
      .onConflictDoUpdate({ target: [messagingChatPrivacy.channelId, messagingChatPrivacy.chatId], set: { state: data.state, updatedAt: now } });
    await tx
      .update(messagingConversations)
      .set({ privacyState: data.state })
      .where(and(eq(messagingConversations.tenantId, ctx.tenantId), eq(messagingConversations.channelId, id), eq(messagingConversations.chatId, data.chatId)));
    return { chatId: data.chatId, state: data.state, updatedAt: now.toISOString() };
  });
}

export async function listChatPrivacy(ctx: MemberCtx, id: string): Promise<z.infer<typeof ChatPrivacyListSchema>> {
  await assertChannel(ctx, id);
  const rows = await ctx.db
    .select()
    .from(messagingChatPrivacy)
    .where(and(eq(messagingChatPrivacy.tenantId, ctx.tenantId), eq(messagingChatPrivacy.channelId, id)))
    .orderBy(asc(messagingChatPrivacy.chatId));
  return { items: rows.map((r) => ({ chatId: r.chatId, state: r.state as PrivacyState, updatedAt: r.updatedAt.toISOString() })) };
}

/**
 * How a chat stands on its channel (spec 1 §5.6-5.7): on a whitelist channel only whitelisted chats
 * are open, pending ones are listed redacted and unknown ones are hidden; on a channel without
 * privacy every chat is open except one marked hidden (blacklisted).
 */
export function effectivePrivacy(privacyMode: string, state: string | null | undefined): "open" | "pending" | "hidden" {
  if (state === "hidden") return "hidden";
  if (privacyMode !== "whitelist") return "open";
  if (state === "whitelisted") return "open";
  if (state === "pending") return "pending";
  return "hidden";
}

/** The privacy list entry of a chat, as SQL for a conversation row being written (its `privacy_state` copy). */
export function privacyStateOf(channelId: string, chatId: string) {
  return sql<string | null>`(select p.state from messaging_chat_privacy p where p.channel_id = ${channelId}::uuid and p.chat_id = ${chatId})`;
}
