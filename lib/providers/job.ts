import { z } from "zod";
import { defineJob, jobEvent } from "../jobs/define-job";
import { drainQueue } from "../jobs/drain";
import { processProviderNotifications } from "./process";

/** Sent after a provider notification is stored: wakes the processing at once (debounced by bursts). */
export const providerNotificationReceived = jobEvent("crm/providers.notification-received", z.object({}));

/**
 * Payment and e-signature notifications into payments, contracts and their events. The state lives
 * in `provider_notifications`, claimed with SKIP LOCKED; applying one twice changes nothing, so a
 * rerun after a crash is safe.
 */
export const processProviderNotificationsJob = defineJob({
  id: "process-provider-notifications",
  step: "process-provider-notifications",
  retries: 3,
  schedule: { functionId: "process-provider-notifications-cron", cron: "* * * * *", embeddedEveryMs: () => 10_000 },
  trigger: { functionId: "process-provider-notifications-on-receive", event: providerNotificationReceived, debounce: { period: "1s", timeout: "5s" } },
  run: (_data, { db, log }) =>
    drainQueue(
      (limit) => processProviderNotifications(db, limit),
      100,
      (failed) => log.warn({ failed }, "provider notifications failed processing; they are kept with their error"),
    ),
});
