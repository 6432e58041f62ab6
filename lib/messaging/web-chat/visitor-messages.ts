import { z } from "zod";
import type { Db } from "../../../db/client";
import type { WebChatSessionRow } from "../../../db/schema";
import { conflict } from "../../errors/domain-errors";
import { storableJson } from "../../util/storable-text";
import type { ChatPlace } from "./place";
import { intakeVisitorMessage } from "./intake";
import { ChatMessageSchema, messagesAfter, presentChatMessage } from "./store";

export const PostChatMessageSchema = z
  .strictObject({
    text: z
      .string()
      .min(1)
      .max(2000)
      .refine((v) => v.trim().length > 0, "must not be blank")
      .meta({ description: "1 to 2,000 characters." }),
    clientMessageId: z
      .string()
      .min(1)
      .max(100)
      .meta({ description: "The widget's own id of the message: sending it again stores nothing new and answers the first message." }),
  })
  .meta({ id: "PostWebChatMessage" });

export const ChatMessageAnswerSchema = z.object({ message: ChatMessageSchema }).meta({ id: "WebChatMessageAnswer" });

export const ChatMessagesQuery = z.strictObject({
  after: z.uuid().optional().meta({ description: "A message id: only messages after it (echo `nextAfter`)." }),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const ChatMessagesSchema = z
  .object({
    messages: z.array(ChatMessageSchema).meta({ description: "Oldest first." }),
    nextAfter: z.uuid().nullable().meta({ description: "The last message's id: poll with `after={nextAfter}` (null when there are none: keep your `after`)." }),
  })
  .meta({ id: "WebChatMessages" });

/**
 * `POST .../chat/messages`: the visitor's message, stored (with the conversation's record, the
 * session's new expiry and `channel.message.received`) before the 201, in a batch with the other
 * messages of its tenant arriving at the same time (./intake.ts). A `clientMessageId` already
 * stored answers the first message again; with another text it is a 409.
 */
export async function postVisitorMessage(db: Db, place: ChatPlace, session: WebChatSessionRow, body: unknown) {
  const data = PostChatMessageSchema.parse(storableJson(body));
  const { row, replayed } = await intakeVisitorMessage(db, place, session, data);
  if (replayed && row.text !== data.text)
    throw conflict("body field `clientMessageId`: already used for another message of this chat.", "client_message_id_reused");
  return { message: presentChatMessage(row), replayed };
}

/** `GET .../chat/messages?after=`: the conversation's messages after `after`, oldest first. */
export async function listVisitorMessages(
  db: Db,
  session: WebChatSessionRow,
  q: z.output<typeof ChatMessagesQuery>,
): Promise<z.infer<typeof ChatMessagesSchema>> {
  const rows = await messagesAfter(db, session.channelId, session.chatId, q.after ?? null, q.limit);
  return { messages: rows.map(presentChatMessage), nextAfter: rows.at(-1)?.id ?? q.after ?? null };
}
