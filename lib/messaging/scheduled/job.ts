import { defineJob } from "../../jobs/define-job";
import { fireDue } from "./fire";

/**
 * Fires due scheduled messages. Embedded runner: every 5 seconds. Inngest: every minute as a
 * backstop, beside the function `fire-scheduled-message` that sleeps until each schedule's
 * `sendAt` (inngest/functions/scheduled-message.ts). Both claim in PostgreSQL, so a schedule is
 * sent once whichever gets there first, and a cancelled one by neither.
 */
export const fireScheduledMessagesJob = defineJob({
  id: "fire-scheduled-messages",
  step: "fire-scheduled-messages",
  retries: 3,
  schedule: { functionId: "fire-scheduled-messages-cron", cron: "* * * * *", embeddedEveryMs: () => 5_000 },
  run: async (_data, { db, log }) => fireDue(db, log),
});
