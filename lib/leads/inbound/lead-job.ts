import { z } from "zod";
import { config } from "../../config";
import { defineJob, jobEvent } from "../../jobs/define-job";
import { processLeads } from "./process-batch";
import { pendingLeadIds } from "./process-lead";

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
  // The sweep picks up leads a dead worker left `processing`: at least as often as a claim goes stale.
  schedule: { functionId: "process-leads-cron", cron: "* * * * *", embeddedEveryMs: () => Math.min(30_000, config().LEAD_CLAIM_TIMEOUT_SECONDS * 1000) },
  trigger: { functionId: "process-lead", event: leadReceived },
  run: async (data, { db, log }) => {
    const ids = data ? await pendingLeadIds(db, 50, data.leadId) : await pendingLeadIds(db);
    let processed = 0;
    let failed = 0;
    for (const r of await processLeads(db, ids)) {
      if (r.status === "processed") processed++;
      if (r.status === "failed") {
        failed++;
        log.warn({ leadId: r.lead?.id, error: r.lead?.error }, "lead failed; replay it once the cause is fixed");
      }
    }
    return { processed, failed };
  },
});
