import { z } from "zod";
import type { MessagingMessageRow } from "../../../db/schema";

/** A message as the visitor's side shows it: no member id, no internal sequence. */
export const ChatMessageSchema = z
  .object({
    id: z.uuid(),
    direction: z.enum(["inbound", "outbound"]).meta({ description: "`inbound`: the visitor's; `outbound`: the agency's answer." }),
    text: z.string().nullable(),
    at: z.string().meta({ description: "When it was stored (ISO 8601 UTC)." }),
    clientMessageId: z.string().nullable().meta({ description: "The visitor's own id of the message (null for the agency's)." }),
  })
  .meta({ id: "WebChatMessage" });
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** The columns a message is shown (and announced) from. */
export type ChatMessageFields = Pick<MessagingMessageRow, "id" | "seq" | "channelId" | "chatId" | "direction" | "text" | "clientMessageId" | "createdAt">;

export const presentChatMessage = (m: ChatMessageFields): ChatMessage => ({
  id: m.id,
  direction: m.direction,
  text: m.text,
  at: m.createdAt.toISOString(),
  clientMessageId: m.direction === "inbound" ? m.clientMessageId : null,
});
