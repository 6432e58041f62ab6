import { getDb } from "../../db/client";
import { deliverDueEvents } from "../../lib/events/deliver";
import { inngest } from "../client";

/** Every minute: the retry cycle of spec 2 §6 (failed heads are attempted again once due). */
export const deliverEventsCron = inngest.createFunction(
  { id: "deliver-events-cron", triggers: [{ cron: "* * * * *" }], retries: 0 },
  async ({ step }) => step.run("deliver-due-events", async () => deliverDueEvents(await getDb())),
);

/**
 * Soon after writes: the API sends `crm/events.queued` after a commit. Debounced, so a burst of
 * writes makes one run; the order itself lives in Postgres, not here.
 */
export const deliverEventsOnQueue = inngest.createFunction(
  { id: "deliver-events-on-queue", triggers: [{ event: "crm/events.queued" }], debounce: { period: "1s", timeout: "5s" }, retries: 0 },
  async ({ step }) => step.run("deliver-due-events", async () => deliverDueEvents(await getDb())),
);
