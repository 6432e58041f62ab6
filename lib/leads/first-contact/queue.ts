import { z } from "zod";
import type { Tx } from "../../../db/client";
import { firstContactRequests } from "../../../db/schema";
import { afterCommit } from "../../../db/transaction";
import { jobEvent } from "../../jobs/define-job";
import { sendJobEvent } from "../../jobs/dispatch";

/** Sent after a commit that queued first contacts: wakes the first-contact job at once. */
export const firstContactQueued = jobEvent("crm/leads.first-contact-queued", z.object({}));

/**
 * Queues a lead's first message in its processing transaction (a rollback queues nothing; a
 * replayed lead keeps its first request) and wakes the job after the commit. A delayed one waits
 * for the job's schedule.
 */
export async function queueFirstContact(tx: Tx, r: { tenantId: string; leadId: string; marketingChannelId: string; dealId: string; sendAt: Date }) {
  const [row] = await tx.insert(firstContactRequests).values(r).onConflictDoNothing().returning({ id: firstContactRequests.id });
  afterCommit(
    tx,
    "leads:first-contact-queued",
    () => null,
    () => sendJobEvent(firstContactQueued, {}),
  );
  return Boolean(row);
}
