import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { messagingConversations } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import type { MemberCtx } from "../../context/verb-context";
import { config } from "../../config";
import { ChatIdSchema } from "../chat-id";
import { adapterFor } from "../providers/adapter-for";
import { GatewayError } from "../providers/gateway-http";
import { conversationAccess, REJECTIONS } from "./detail";
import { readPolicy, ReadPolicySchema } from "./policy";

export const RESYNC_OUTCOMES = ["recovered", "still_empty", "nothing_to_resync", "unreachable"] as const;
export type ResyncOutcome = (typeof RESYNC_OUTCOMES)[number];

export const ResyncBody = z
  .strictObject({
    channelId: z.uuid().transform((v) => v.toLowerCase()),
    chatId: ChatIdSchema,
  })
  .meta({ id: "ConversationResync" });

const NOT_CONNECTED = new Set(["error", "expired", "awaiting_auth", "disabled", "draft"]);

/**
 * `POST /api/v1/messaging/conversations/resync`: rebuild the provider addressing of one
 * conversation. WAHA stores some chats' messages under the `@lid` id, and reading the `@c.us` chat
 * then returns `[]` (the detail answers `feed_empty_pending_sync`). Resync reads the feed under the
 * id in use; when it is empty it tries the other forms of the chat (the stored `@lid`, the gateway's
 * `@lid` for the phone, or the phone for an `@lid` chat) and keeps the first that has messages as the
 * conversation's feed id. It sends, deletes or alters no message. Outcomes: `recovered` (another id
 * has the messages; the detail now reads them), `still_empty` (no form has any), `nothing_to_resync`
 * (the feed already answers, or the channel keeps no readable history), `unreachable` (the gateway
 * failed or the channel is not connected). Same access rules as the detail.
 */
/** The answer of `resyncConversation`. */
export const ResyncResultSchema = z
  .object({ policy: ReadPolicySchema, outcome: z.enum(RESYNC_OUTCOMES).nullable(), rejection: z.enum(REJECTIONS).nullable() })
  .meta({ id: "ConversationResyncResult" });

export async function resyncConversation(ctx: MemberCtx, body: unknown): Promise<z.infer<typeof ResyncResultSchema>> {
  const input = ResyncBody.parse(body);
  const policy = readPolicy([]);
  const access = await conversationAccess(ctx, input.channelId, input.chatId);
  if (!access.ok) return { policy, outcome: null, rejection: access.rejection };
  const { channel, conversation } = access;
  const answer = (outcome: ResyncOutcome) => ({ policy, outcome, rejection: null });
  if (NOT_CONNECTED.has(channel.connectionState)) return answer("unreachable");
  const adapter = adapterFor(channel);
  if (!adapter.supportsHistory) return answer("nothing_to_resync");

  const signal = AbortSignal.timeout(config().MESSAGING_HISTORY_BUDGET_MS);
  const hasMessages = async (id: string) => {
    try {
      return (await adapter.history(id, { limit: 1 }, signal)).length > 0;
    } catch (err) {
      if (err instanceof GatewayError && err.kind === "not_found") return false;
      throw err;
    }
  };
  try {
    const current = conversation.feedChatId ?? conversation.chatId;
    if (await hasMessages(current)) return answer("nothing_to_resync");
    const candidates = new Set<string>([conversation.chatId]);
    if (conversation.lid) candidates.add(conversation.lid);
    if (conversation.chatId.endsWith("@c.us")) {
      const lid = await adapter.phoneToLid(conversation.chatId, signal).catch(() => null);
      if (lid) candidates.add(lid);
    } else if (conversation.chatId.endsWith("@lid")) {
      const phone = await adapter.lidToPhone(conversation.chatId, signal).catch(() => null);
      if (phone) candidates.add(phone);
    }
    candidates.delete(current);
    for (const id of candidates) {
      if (!(await hasMessages(id))) continue;
      await inTenantTransaction(ctx.db, ctx.tenantId, (tx) =>
        tx
          .update(messagingConversations)
          .set({ feedChatId: id === conversation.chatId ? null : id, ...(id.endsWith("@lid") && !conversation.lid ? { lid: id } : {}) })
          .where(and(eq(messagingConversations.tenantId, ctx.tenantId), eq(messagingConversations.id, conversation.id))),
      );
      return answer("recovered");
    }
    return answer("still_empty");
  } catch {
    return answer("unreachable");
  }
}
