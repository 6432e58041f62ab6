import { config } from "../config";
import { defineJob } from "../jobs/define-job";
import { enterPacedWork } from "../jobs/paced-work";
import { eventsQueued } from "../outbox/events-queued";
import { deliverDueEvents } from "./deliver";

/**
 * Outbound webhook delivery (spec 2 §6): on a schedule (the retry cycle: failed heads are due again
 * after about a minute) and right after writes that queued events (debounced: a burst of writes
 * makes one run). The per-tenant order lives in PostgreSQL, not in the runner.
 */
export const deliverEventsJob = defineJob({
  id: "deliver-events",
  step: "deliver-due-events",
  retries: 0,
  schedule: { functionId: "deliver-events-cron", cron: "* * * * *", embeddedEveryMs: () => config().EVENTS_POLL_INTERVAL_MS },
  trigger: { functionId: "deliver-events-on-queue", event: eventsQueued, debounce: { period: "1s", timeout: "5s" } },
  run: async (_data, { db, log }) => {
    // Paced work (agents yield to it: lib/jobs/paced-work.ts) from the first claim that found events
    // due: every event write wakes a run, and most find nothing, or nothing to send (no webhook).
    let leave: (() => void) | undefined;
    try {
      const report = await deliverDueEvents(db, {}, () => {
        leave ??= enterPacedWork();
      });
      if (report.delivered || report.failed) log.info(report, "delivery cycle");
      return report;
    } finally {
      leave?.();
    }
  },
});
