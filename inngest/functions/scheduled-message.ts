import { getDb } from "../../db/client";
import { logger } from "../../lib/log/logger";
import { messageScheduled, scheduleCancelled } from "../../lib/messaging/scheduled/events";
import { fireOne } from "../../lib/messaging/scheduled/fire";
import { inngest } from "../client";

/**
 * Sleeps until a schedule's `sendAt`, then claims and fires that one schedule (the same claim as the
 * registry job `fire-scheduled-messages`, which stays as the per-minute backstop). A cancellation
 * ends the sleeping run; if its event is lost, the woken run finds the row cancelled and does nothing.
 */
export const fireScheduledMessage = inngest.createFunction(
  {
    id: "fire-scheduled-message",
    triggers: [{ event: messageScheduled.name }],
    retries: 3,
    cancelOn: [{ event: scheduleCancelled.name, if: "async.data.scheduleId == event.data.scheduleId" }],
  },
  async ({ event, step }) => {
    const data = messageScheduled.schema.parse(event.data);
    await step.sleepUntil("wait-until-send-at", data.sendAt);
    return step.run("fire", async () => fireOne(await getDb(), data.scheduleId, logger().child({ job: "fire-scheduled-message" })));
  },
);
