import { z } from "zod";
import { config } from "../../config";
import { defineJob, jobEvent } from "../../jobs/define-job";
import { sendJobEvent } from "../../jobs/dispatch";
import { processLeads } from "./process-batch";
import { pendingLeadIds } from "./process-lead";

/** Leads claimed per batch of a run, and batches a run takes at most (about 3 s of work). */
const BATCH = 50;
const MAX_BATCHES = 20;

/** Sent after a lead is stored (and committed): wakes the processing at once. */
export const leadReceived = jobEvent("crm/lead.received", z.object({ leadId: z.uuid() }));

/**
 * Lead processing (Inngest function `process-lead`, or the embedded runner): the lead named by the
 * event, then every lead left behind (a timed-out sync request, a crashed worker). The state lives
 * in `inbound_leads`, so running twice or in parallel processes each lead once.
 */
export const processLeadsJob = defineJob({
  id: "process-leads",
  step: "process-leads",
  retries: 3,
  paced: true,
  // The sweep picks up leads a dead worker left `processing`: at least as often as a claim goes stale.
  schedule: { functionId: "process-leads-cron", cron: "* * * * *", embeddedEveryMs: () => Math.min(30_000, config().LEAD_CLAIM_TIMEOUT_SECONDS * 1000) },
  // In the embedded runner a burst's events make one run, which drains what is pending in batches.
  trigger: { functionId: "process-lead", event: leadReceived, coalesce: true },
  run: async (data, { db, log }) => {
    let processed = 0;
    let failed = 0;
    let ids = data ? await pendingLeadIds(db, BATCH, data.leadId) : await pendingLeadIds(db, BATCH);
    // Until a batch comes back short (what is pending now is done; later leads wake their own run)
    // or makes no progress (another worker holds its leads). At most MAX_BATCHES a run, so a
    // stopping worker or an Inngest step is never held for long: a run that stops with leads
    // still waiting sends the event again, which starts the next run at once.
    for (let batch = 1; ids.length; batch++) {
      const before = processed + failed;
      for (const r of await processLeads(db, ids)) {
        if (r.status === "processed") processed++;
        if (r.status === "failed") {
          failed++;
          log.warn({ leadId: r.lead?.id, error: r.lead?.error }, "lead failed; replay it once the cause is fixed");
        }
      }
      if (ids.length < BATCH || processed + failed === before) break;
      ids = await pendingLeadIds(db, BATCH);
      if (ids.length && batch >= MAX_BATCHES) {
        sendJobEvent(leadReceived, { leadId: ids[0] });
        break;
      }
    }
    return { processed, failed };
  },
});
