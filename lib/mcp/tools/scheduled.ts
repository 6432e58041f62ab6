import { z } from "zod";
import { SCHEDULE_STATUSES } from "../../messaging/scheduled/present";
import { cancelScheduled } from "../../messaging/scheduled/cancel";
import { listScheduled, ListScheduledQuery } from "../../messaging/scheduled/list";
import { defineTool, READ_ONLY } from "../define-tool";
import { done } from "../result";
import { asQuery, chatIdArg } from "./conversations";

export const cancelScheduledMessageTool = defineTool({
  name: "cancel_scheduled_message",
  title: "Cancel a scheduled message",
  description:
    "Cancels a scheduled message that has not started sending. Answers the schedule with `status: cancelled` (`idempotent: true` if it was already " +
    "cancelled). Tool errors: `not_found` (no such schedule on a channel this member may use), `schedule_forbidden` (a broker cancels only its own), " +
    "`schedule_sending` (it is being sent right now), `schedule_not_cancellable` (already sent, blocked or failed).",
  input: z.strictObject({ scheduleId: z.uuid().describe("`schedule.id` from schedule_message or list_scheduled_messages.") }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run({ ctx }, args) {
    const r = await cancelScheduled(ctx, args);
    return done({ schedule: r.schedule, idempotent: r.idempotent }, `Cancelled ${r.schedule.id}${r.idempotent ? " (already cancelled)" : ""}.`);
  },
});

export const listScheduledMessagesTool = defineTool({
  name: "list_scheduled_messages",
  title: "List scheduled messages",
  description:
    "Scheduled messages on the channels this member may use, earliest `sendAt` first (same answer as GET /api/v1/messaging/scheduled). " +
    "`status`: `scheduled` (waiting), `sent` (`messageId` set), `blocked` (a gate refused at fire time; `reason`), `cancelled`, `failed` (the channel " +
    "did not take it; `reason`). Filter by `status`, `channelId`, `chatId`; page with `cursor` = `page.nextCursor`.",
  input: z.strictObject({
    status: z.array(z.enum(SCHEDULE_STATUSES)).min(1).optional(),
    channelId: z.uuid().optional(),
    chatId: chatIdArg.optional(),
    limit: z.number().int().min(1).max(100).optional().describe("1 to 100 (default 50)."),
    cursor: z.string().max(500).optional(),
  }),
  annotations: READ_ONLY,
  async run({ ctx }, args) {
    const out = await listScheduled(ctx, ListScheduledQuery.parse(asQuery(args)));
    return done(out, `${out.page.returned} scheduled message(s)${out.page.hasMore ? "; more with cursor=page.nextCursor" : ""}.`);
  },
});
