import type { DbOrTx } from "../../db/client";
import type { MessagingChannelRow } from "../../db/schema";
import { type NewEvent, recordEvent } from "../outbox/record-event";
import { credentialsOf } from "./providers/adapter-for";
import type { ProviderMessage } from "./providers/types";

/**
 * `channel.message.received` / `channel.message.sent` with exactly the fields of spec 2 §6: ids,
 * type, direction, session, time, length and media kind. Never the text, a media URL, a name or an
 * avatar. Callers raise them only for chats whose privacy is open (whitelisted, or no privacy).
 */
export async function recordMessageEvent(
  tx: DbOrTx,
  channel: MessagingChannelRow,
  chatId: string,
  m: Pick<ProviderMessage, "id" | "timestamp" | "text" | "type" | "media">,
  direction: "inbound" | "outbound",
): Promise<void> {
  await recordEvent(tx, messageEvent(channel, chatId, m, direction));
}

/** The outbox row of `recordMessageEvent`, for callers that record several in one statement (`recordEvents`). */
export function messageEvent(
  channel: MessagingChannelRow,
  chatId: string,
  m: Pick<ProviderMessage, "id" | "timestamp" | "text" | "type" | "media">,
  direction: "inbound" | "outbound",
): NewEvent {
  return {
    tenantId: channel.tenantId,
    eventName: direction === "inbound" ? "channel.message.received" : "channel.message.sent",
    entityType: "channel_message",
    entityId: m.id,
    userId: null,
    data: {
      channelId: channel.id,
      channelType: channel.transport,
      chatId,
      messageId: m.id,
      messageType: m.type,
      direction,
      sessionName: credentialsOf(channel).sessionName,
      timestamp: new Date(m.timestamp * 1000).toISOString(),
      textLength: m.text?.length ?? 0,
      hasMedia: m.media !== null,
      mediaType: m.media?.mimeType ?? null,
    },
  };
}
