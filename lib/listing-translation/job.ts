import { defineJob } from "../jobs/define-job";
import { drainQueue } from "../jobs/drain";
import { listingTextChanged } from "../listings/translation-queue";
import { processListingTranslations } from "./process";

/**
 * Automatic listing translation: listings queued by a change of their Portuguese text
 * (`listing_translation_queue`) get `translations.en` / `.es` from the tenant's model. Woken after
 * the commit that queued them; the schedule picks up retries and anything a lost wake-up left.
 */
export const translateListingsJob = defineJob({
  id: "translate-listings",
  step: "translate-listings",
  retries: 3,
  schedule: { functionId: "translate-listings-cron", cron: "* * * * *", embeddedEveryMs: () => 15_000 },
  trigger: { functionId: "translate-listings-on-change", event: listingTextChanged, debounce: { period: "1s", timeout: "5s" } },
  run: (_data, { db, log }) =>
    drainQueue(
      (limit) => processListingTranslations(db, limit),
      20,
      (failed) => log.warn({ failed }, "listing translations failed; they are retried later"),
    ),
});
