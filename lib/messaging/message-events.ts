import type { DbOrTx } from "../../db/client";
import type { MessagingChannelRow } from "../../db/schema";
import { type NewEvent, recordEvent } from "../outbox/record-event";
import { processGlobal } from "../util/process-global";
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
      sessionName: sessionNameOf(channel),
      timestamp: new Date(m.timestamp * 1000).toISOString(),
      textLength: m.text?.length ?? 0,
      hasMedia: m.media !== null,
      mediaType: m.media?.mimeType ?? null,
    },
  };
}

/**
 * The session name sealed in the channel's credentials, opened once per sealed value: a batch of
 * web-chat messages raises hundreds of events of one channel, and opening the box (an AES-GCM
 * decryption and a JSON parse) per event was a visible part of a message's CPU. Keyed by the sealed
 * text, so a changed secret is simply another key; bounded, as channels are few.
 */
const sessionNames = processGlobal("channel-session-names", () => new Map<string, string | undefined>());
function sessionNameOf(channel: MessagingChannelRow): string | undefined {
  if (sessionNames.has(channel.credentials)) return sessionNames.get(channel.credentials);
  const name = credentialsOf(channel).sessionName;
  if (sessionNames.size >= 1000) sessionNames.clear();
  sessionNames.set(channel.credentials, name);
  return name;
}
