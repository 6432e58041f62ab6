import { z } from "zod";
import { defineJob, jobEvent } from "../../jobs/define-job";
import { drainQueue } from "../../jobs/drain";
import { processMessagingEvents } from "./process-events";

/** Sent after a gateway webhook is stored: wakes the processing at once (debounced by bursts). */
export const messagingEventsReceived = jobEvent("crm/messaging.events-received", z.object({}));

/**
 * Gateway webhooks into conversation records, labels, channel state and `channel.message.*`
 * events. The state lives in `messaging_inbound_events`, claimed with SKIP LOCKED, so running twice
 * or in parallel processes each stored webhook once.
 */
export const processMessagingEventsJob = defineJob({
  id: "process-messaging-events",
  step: "process-messaging-events",
  retries: 3,
  schedule: { functionId: "process-messaging-events-cron", cron: "* * * * *", embeddedEveryMs: () => 10_000 },
  trigger: { functionId: "process-messaging-events-on-receive", event: messagingEventsReceived, debounce: { period: "1s", timeout: "5s" } },
  run: (_data, { db, log }) =>
    drainQueue(
      (limit) => processMessagingEvents(db, limit),
      200,
      (failed) => log.warn({ failed }, "messaging webhooks failed processing; they are kept with their error"),
    ),
});
