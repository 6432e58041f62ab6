/**
 * Label mutation for the tool interface (REST only reads labels, spec 1 §4.3). Each verb takes a
 * member context and passes the read gates first: the channel must be one the member owns or holds
 * a grant for (else `forbidden` `channel_forbidden`, or `not_found` `not_found_or_inaccessible`), and
 * for chat labels the chat must be a stored conversation that privacy does not hide (else
 * `not_found_or_inaccessible` / `forbidden` `privacy_restricted`), the same answers as the detail's
 * rejections. Then the gateway is called through the channel's adapter (`setChatLabels`,
 * `createLabel`, `deleteLabel`, within MESSAGING_SEND_TIMEOUT_MS; a gateway failure is a 503
 * `channel_unreachable`) and the stored labels follow, so lists and assignments show the change at
 * once (the gateway's label webhooks later confirm it idempotently).
 *
 *   addChatLabel(ctx, { channelId, chatId, labelId })    -> { chatId, labels: string[] }
 *   removeChatLabel(ctx, { channelId, chatId, labelId }) -> { chatId, labels: string[] }
 *   createChannelLabel(ctx, { channelId, name, colorHex? }) -> { id, name, color }
 *   deleteChannelLabel(ctx, { channelId, labelId })     -> { id, deleted: true }
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { messagingConversations, messagingLabels, type MessagingChannelRow } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import type { MemberCtx } from "../../context/verb-context";
import { DomainError, forbidden, invalid, notFound, unavailable } from "../../errors/domain-errors";
import { config } from "../../config";
import { ChatIdSchema } from "../chat-id";
import { conversationAccess } from "../conversations/detail";
import { accessibleChannelById, channelRefusal } from "../access";
import { adapterFor } from "../providers/adapter-for";
import type { ProviderAdapter } from "../providers/types";

const Uuid = z.uuid().transform((v) => v.toLowerCase());
const LabelId = z.string().min(1).max(100);
export const ChatLabelInput = z.strictObject({ channelId: Uuid, chatId: ChatIdSchema, labelId: LabelId });
export const CreateLabelInput = z.strictObject({
  channelId: Uuid,
  name: z.string().trim().min(1).max(100),
  colorHex: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "must be #rrggbb")
    .optional(),
});
export const DeleteLabelInput = z.strictObject({ channelId: Uuid, labelId: LabelId });

async function channelFor(ctx: MemberCtx, channelId: string): Promise<{ channel: MessagingChannelRow; adapter: ProviderAdapter }> {
  const channel = await accessibleChannelById(ctx.db, ctx.actor, channelId);
  if (!channel) {
    if ((await channelRefusal(ctx.db, ctx.actor, channelId)) === "channel_forbidden") throw forbidden("You may not use this channel.", "channel_forbidden");
    throw notFound("No such channel accessible to this key.", "not_found_or_inaccessible");
  }
  const adapter = adapterFor(channel);
  if (!adapter.supportsLabels) throw invalid("This channel has no chat labels.", "channel_labels_unsupported");
  return { channel, adapter };
}

async function gateway<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await fn(AbortSignal.timeout(config().MESSAGING_SEND_TIMEOUT_MS));
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw unavailable("The channel's gateway did not carry out the change; nothing was changed here.", "channel_unreachable");
  }
}

async function changeChatLabel(ctx: MemberCtx, raw: unknown, add: boolean) {
  const input = ChatLabelInput.parse(raw);
  const { channel, adapter } = await channelFor(ctx, input.channelId);
  const access = await conversationAccess(ctx, channel.id, input.chatId);
  if (!access.ok) {
    if (access.rejection === "privacy_restricted") throw forbidden("This chat is hidden by the channel's privacy list.", "privacy_restricted");
    throw notFound("No such conversation accessible to this key.", "not_found_or_inaccessible");
  }
  const chatId = access.conversation.chatId;
  const labels = await gateway(async (signal) => {
    const known = await adapter.labels(signal);
    if (!known.some((l) => l.id === input.labelId)) throw notFound(`No label ${input.labelId} on this channel.`, "label_not_found");
    const current = await adapter.chatLabels(chatId, signal);
    const next = add ? [...new Set([...current, input.labelId])] : current.filter((id) => id !== input.labelId);
    await adapter.setChatLabels(chatId, next, signal);
    return next;
  });
  await inTenantTransaction(ctx.db, ctx.tenantId, (tx) =>
    tx
      .update(messagingConversations)
      .set({ labels })
      .where(and(eq(messagingConversations.tenantId, ctx.tenantId), eq(messagingConversations.id, access.conversation.id))),
  );
  return { chatId, labels };
}

export const addChatLabel = (ctx: MemberCtx, input: unknown) => changeChatLabel(ctx, input, true);
export const removeChatLabel = (ctx: MemberCtx, input: unknown) => changeChatLabel(ctx, input, false);

export async function createChannelLabel(ctx: MemberCtx, raw: unknown) {
  const input = CreateLabelInput.parse(raw);
  const { channel, adapter } = await channelFor(ctx, input.channelId);
  const label = await gateway((signal) => adapter.createLabel({ name: input.name, colorHex: input.colorHex }, signal));
  await inTenantTransaction(ctx.db, ctx.tenantId, (tx) =>
    tx
      .insert(messagingLabels)
      .values({ tenantId: ctx.tenantId, channelId: channel.id, labelId: label.id, name: label.name, color: label.color })
      .onConflictDoUpdate({ target: [messagingLabels.channelId, messagingLabels.labelId], set: { name: label.name, color: label.color } }),
  );
  return { id: label.id, name: label.name, color: label.color };
}

export async function deleteChannelLabel(ctx: MemberCtx, raw: unknown) {
  const input = DeleteLabelInput.parse(raw);
  const { channel, adapter } = await channelFor(ctx, input.channelId);
  await gateway((signal) => adapter.deleteLabel(input.labelId, signal));
  await inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await tx
      .delete(messagingLabels)
      .where(and(eq(messagingLabels.tenantId, ctx.tenantId), eq(messagingLabels.channelId, channel.id), eq(messagingLabels.labelId, input.labelId)));
    await tx
      .update(messagingConversations)
      .set({
        labels: sql`(select coalesce(jsonb_agg(v), '[]'::jsonb) from jsonb_array_elements_text(${messagingConversations.labels}) v where v <> ${input.labelId})`,
      })
      .where(
        and(
          eq(messagingConversations.tenantId, ctx.tenantId),
          eq(messagingConversations.channelId, channel.id),
          sql`${messagingConversations.labels} @> jsonb_build_array(${input.labelId}::text)`,
        ),
      );
  });
  return { id: input.labelId, deleted: true as const };
}
