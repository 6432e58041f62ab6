import { z } from "zod";
import { MAX_SCHEDULE_DAYS, scheduleMessage } from "../../messaging/scheduled/schedule";
import { defineTool } from "../define-tool";
import { done, refused } from "../result";
import { chatIdArg } from "./conversations";

export const scheduleMessageTool = defineTool({
  name: "schedule_message",
  title: "Schedule a message",
  description:
    `Schedules one outbound message (free text, or an approved template on channels that support templates) to a chat, to be sent at \`sendAt\` (ISO 8601 with offset, at most ${MAX_SCHEDULE_DAYS} days ahead). ` +
    "The outbound gates run now and again when it fires: channel_access_grant, chat_privacy_mode (only whitelisted chats on a privacy channel), " +
    "outreach_safety (opt-out list) and send_idempotency. A refusal is a tool error with the REST send ack: `status` (`forbidden`, `blocked`, `rejected`) and " +
    "`reason` (`channel_forbidden`, `not_found_or_inaccessible`, `privacy_pending_approval`, `privacy_denied`, `opt_out`, `outreach_unverifiable`, " +
    "`channel_send_unsupported`, `template_not_found`). Success answers the ack with `status: queued` and `schedule` (its `id` cancels it). " +
    "Always send a new `idempotencyKey` for a new message and the same key when retrying: a retry answers the first schedule with `idempotent: true`. " +
    "If a gate refuses at fire time, the schedule ends `blocked` with that reason (see list_scheduled_messages).",
  input: z.strictObject({
    channelId: z.uuid().describe("`key.channelId` of a conversation."),
    chatId: chatIdArg,
    text: z.string().min(1).max(4096).optional().describe("1 to 4096 characters; exactly one of `text`, `templateId`."),
    templateId: z.uuid().optional().describe("An approved template of the channel (WhatsApp Cloud channels)."),
    dealId: z.uuid().optional().describe("Links the conversation to this deal when sent."),
    sendAt: z.string().max(40).describe("When to send: ISO 8601 with offset, e.g. 2026-12-01T09:00:00-03:00; up to 30 days ahead."),
    idempotencyKey: z.string().min(8).max(200).describe("8 to 200 characters, unique per message (e.g. a UUID)."),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ ctx }, args) {
    const r = await scheduleMessage(ctx, args);
    if (!r.ok) return refused(r.ack, `Not scheduled: ${r.ack.status} (${r.ack.reason}).`);
    const s = r.schedule;
    return done({ ...r.ack, schedule: s }, `${r.ack.idempotent ? "Already scheduled" : "Scheduled"} ${s.id} to ${s.handle} at ${s.sendAt}.`);
  },
});
