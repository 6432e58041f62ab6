import { defineJob } from "../../jobs/define-job";
import { drainQueue } from "../../jobs/drain";
import { processFirstContacts } from "./process";
import { firstContactQueued } from "./queue";

/**
 * The automatic first message of new leads (`first_contact_requests`): woken after the lead's
 * processing commits; the schedule sends delayed ones when due and retries unreachable gateways.
 */
export const firstContactJob = defineJob({
  id: "first-contact",
  step: "first-contact",
  retries: 3,
  schedule: { functionId: "first-contact-cron", cron: "* * * * *", embeddedEveryMs: () => 5_000 },
  trigger: { functionId: "first-contact-on-lead", event: firstContactQueued, coalesce: true },
  run: (_data, { db, log }) =>
    drainQueue(
      (limit) => processFirstContacts(db, limit),
      50,
      (failed) => log.warn({ failed }, "automatic first contacts failed; they are retried or reported as guard_error"),
    ),
});
