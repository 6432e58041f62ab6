import { z } from "zod";
import { defineJob, jobEvent } from "../../jobs/define-job";
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
  run: async (_data, { db, log }) => {
    let total = { processed: 0, failed: 0 };
    // Drain what is pending now; a later burst sends its own event.
    for (let round = 0; round < 50; round++) {
      const r = await processMessagingEvents(db, 200);
      total = { processed: total.processed + r.processed, failed: total.failed + r.failed };
      if (r.failed) log.warn({ failed: r.failed }, "messaging webhooks failed processing; they are kept with their error");
      if (r.claimed < 200) break;
    }
    return total;
  },
});
