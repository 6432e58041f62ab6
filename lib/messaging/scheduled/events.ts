import { z } from "zod";
import { jobEvent } from "../../jobs/define-job";

/**
 * Sent after a schedule commits: the Inngest function `fire-scheduled-message` sleeps until
 * `sendAt` and fires it. The embedded runner ignores it (its poll finds due schedules).
 */
export const messageScheduled = jobEvent(
  "crm/messaging.message-scheduled",
  z.object({ tenantId: z.uuid(), scheduleId: z.uuid(), sendAt: z.iso.datetime({ offset: true }) }),
);

/** Sent after a cancellation commits: cancels that sleeping Inngest run (`cancelOn`). The database row decides anyway. */
export const scheduleCancelled = jobEvent("crm/messaging.schedule-cancelled", z.object({ tenantId: z.uuid(), scheduleId: z.uuid() }));
