import { z } from "zod";
import type { MessagingScheduledRow } from "../../../db/schema";
import { maskHandle } from "../chat-id";

export const SCHEDULE_STATUSES = ["scheduled", "sent", "blocked", "cancelled", "failed"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export const ScheduledMessageSchema = z
  .object({
    id: z.uuid(),
    channelId: z.uuid(),
    chatId: z.string(),
    handle: z.string().meta({ description: "Masked handle of the chat.", example: "+55 •••••••4321" }),
    content: z
      .union([z.object({ kind: z.literal("text"), text: z.string().nullable() }), z.object({ kind: z.literal("template"), templateId: z.uuid() })])
      .meta({ description: "What will be (or was) sent. `text` is null while the chat is pending privacy approval." }),
    dealId: z.uuid().nullable(),
    sendAt: z.string().meta({ description: "ISO 8601 UTC." }),
    status: z.enum(SCHEDULE_STATUSES),
    reason: z.string().nullable().meta({
      description:
        "Why it was `blocked` (the send ack's gate reason, e.g. `privacy_denied`, `opt_out`, or `api_key_revoked`) or `failed` (e.g. `channel_unreachable`).",
    }),
    messageId: z.string().nullable().meta({ description: "The provider message id once `sent`: the `messageId` of `channel.message.sent`." }),
    idempotencyKey: z.string(),
    createdById: z.uuid().nullable(),
    createdAt: z.string(),
    firedAt: z.string().nullable().meta({ description: "When it was sent, blocked or failed." }),
    cancelledAt: z.string().nullable(),
  })
  .meta({ id: "ScheduledMessage" });

export type ScheduledMessage = z.infer<typeof ScheduledMessageSchema>;

/** A schedule as the tool interface and `GET /messaging/scheduled` show it; a pending chat's text is withheld. */
export function presentScheduled(row: MessagingScheduledRow, opts: { redactText?: boolean } = {}): ScheduledMessage {
  return {
    id: row.id,
    channelId: row.channelId,
    chatId: row.chatId,
    handle: maskHandle(row.chatId),
    content: row.templateId ? { kind: "template", templateId: row.templateId } : { kind: "text", text: opts.redactText ? null : row.text },
    dealId: row.dealId,
    sendAt: row.sendAt.toISOString(),
    status: row.status as ScheduleStatus,
    reason: row.reason,
    messageId: row.messageId,
    idempotencyKey: row.idempotencyKey,
    createdById: row.createdById,
    createdAt: row.createdAt.toISOString(),
    firedAt: row.firedAt?.toISOString() ?? null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
  };
}
