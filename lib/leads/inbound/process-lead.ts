import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../../db/client";
import { jsonColumn, rowsOf } from "../../../db/rows";
import { inboundLeads, type InboundLeadRow } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import type { IntegrationActor } from "../../context/actor";
import { config } from "../../config";
import { geocode, type Point } from "../../geo/geocode";
import { UUID_PATTERN } from "../../schemas/uuid";
import { captureListing } from "./capture-listing";
import type { ParsedLead } from "./parse-lead";
import { errorText } from "../../errors/error-text";
import { dealInputs, saveLeadWrites, writeLead } from "./write-lead";

/** A lead claimed this long ago and still `processing` belongs to a worker that died: take it over. */
const staleClaimSeconds = () => config().LEAD_CLAIM_TIMEOUT_SECONDS;

export type LeadOutcome = { status: "processed" | "failed" | "busy" | "done_before"; lead: InboundLeadRow | null };

export type Claimed = { id: string; tenant_id: string; channel_id: string; destination: string; lead: unknown };

/**
 * Processes one lead exactly once: claim it (`received`, or `processing` with a stale claim) with
 * `FOR UPDATE SKIP LOCKED`, then in one tenant transaction re-check the claim, write its deal(s),
 * events and decision log, and mark it `processed`. A crash before that commit leaves no deal and
 * a lead another run takes over; two runs at once cannot both pass the claim.
 */
export async function processLead(db: DbOrTx, leadId: string): Promise<LeadOutcome> {
  const [claimed] = await claimLeads(db, [leadId]);
  if (!claimed) {
    const [lead] = await db.select().from(inboundLeads).where(eq(inboundLeads.id, leadId)).limit(1);
    return { status: lead?.status === "processed" || lead?.status === "failed" ? "done_before" : "busy", lead: lead ?? null };
  }
  return finishClaimed(db, claimed);
}

/** A uuid[] parameter of the well-formed ids (the claim statements take lists of lead ids). */
const uuidArray = (ids: string[]) => sql`${`{${ids.filter((id) => UUID_PATTERN.test(id)).join(",")}}`}::uuid[]`;

/**
 * Claims the leads of `ids` nobody else holds (one statement), in the order they were received;
 * `dealsOnly` leaves owner captures (`isCapture`) to be claimed one at a time.
 */
export async function claimLeads(db: DbOrTx, ids: string[], dealsOnly = false): Promise<Claimed[]> {
  if (!ids.length) return [];
  return rowsOf<Claimed>(
    await db.execute(sql`
      with claimed as (
        update inbound_leads set status = 'processing', claimed_at = now(), attempts = attempts + 1
        where id in (
          select id from inbound_leads
          where id = any(${uuidArray(ids)})
            and (status = 'received' or (status = 'processing' and claimed_at < now() - make_interval(secs => ${staleClaimSeconds()})))
            ${dealsOnly ? sql`and destination = 'deal' and coalesce((lead->'pricing'->>'captureProperty')::boolean, false) = false` : sql``}
          for update skip locked)
        returning id, tenant_id, channel_id, destination, lead, received_at)
      select id, tenant_id, channel_id, destination, lead from claimed order by received_at, id`),
  );
}

/** Gives claims back (`received`), for leads a run claimed and could not finish. */
export async function releaseClaims(db: DbOrTx, ids: string[]): Promise<void> {
  await db.execute(sql`update inbound_leads set status = 'received', claimed_at = null
    where id = any(${uuidArray(ids)}) and status = 'processing'`);
}

/** Whether a claimed lead needs work outside a transaction first (geocoding an owner capture's address); `claimLeads` says the same in SQL. */
function isCapture(claimed: Claimed): boolean {
  return claimed.destination === "listing" || Boolean(jsonColumn<ParsedLead>(claimed.lead).pricing?.captureProperty);
}

/** Writes one claimed lead in its own tenant transaction; an error marks it `failed` (replayable). */
export async function finishClaimed(db: DbOrTx, claimed: Claimed): Promise<LeadOutcome> {
  const leadId = claimed.id;
  try {
    // Network calls stay outside the transaction: an owner capture's address is geocoded first.
    const parsed = jsonColumn<ParsedLead>(claimed.lead);
    const point = isCapture(claimed) ? await geocode(parsed.address) : null;
    const lead = await inTenantTransaction(db, claimed.tenant_id, async (tx) => {
      // The lead's row lock and what its deal needs are read together (one round trip).
      const [[row], known] = await Promise.all([
        tx.select().from(inboundLeads).where(eq(inboundLeads.id, leadId)).for("update"),
        claimed.destination === "listing" ? null : dealInputs(tx, claimed.tenant_id, claimed.channel_id, parsed),
      ]);
      // Someone took the lead over after our claim went stale and finished it: nothing to do.
      if (row?.status !== "processing") return row ?? null;
      if (row.destination === "listing" || !known) return writeCapture(tx, row, point);
      return (await saveLeadWrites(tx, [await writeLead(tx, row, known, point)]))[0];
    });
    return { status: "processed", lead };
  } catch (err) {
    return markFailed(db, leadId, err);
  }
}

async function markFailed(db: DbOrTx, leadId: string, err: unknown): Promise<LeadOutcome> {
  const message = errorText(err);
  const [lead] = await db
    .update(inboundLeads)
    .set({ status: "failed", error: message, processedAt: new Date() })
    .where(and(eq(inboundLeads.id, leadId), eq(inboundLeads.status, "processing")))
    .returning();
  return { status: "failed", lead: lead ?? null };
}

/** Owner capture: a draft property and listing (or the existing one at the same address); no deal. */
async function writeCapture(tx: Tx, row: InboundLeadRow, point: Point | null): Promise<InboundLeadRow> {
  const decision: string[] = [];
  const actor: IntegrationActor = { kind: "integration", tenantId: row.tenantId, integration: "marketing_channel", id: row.channelId };
  const listingId = await captureListing(tx, row, row.lead as unknown as ParsedLead, actor, point, decision);
  const [done] = await tx
    .update(inboundLeads)
    .set({ status: "processed", dealIds: [], listingId, decision, error: null, processedAt: new Date() })
    .where(eq(inboundLeads.id, row.id))
    .returning();
  return done;
}

/**
 * Leads left behind (a sync request that timed out, a worker that died): what the job sweeps;
 * `first` (the lead that woke the job) leads the list while it is still `received`, so a run woken
 * for a lead an earlier sweep already processed costs this one query.
 */
export async function pendingLeadIds(db: DbOrTx, limit = 200, first?: string): Promise<string[]> {
  // Wrapped in an outer select: a lone parenthesised `(… order by … limit)` followed by another
  // `order by` is "multiple ORDER BY clauses" in PostgreSQL when there is no union.
  const res = await db.execute(sql`
    select id from (
      ${first ? sql`(select id, 0 as rank, null::timestamptz as received_at from inbound_leads where id = ${first}::uuid and status = 'received') union all ` : sql``}
      (select id, 1 as rank, received_at from inbound_leads
      where status = 'received' or (status = 'processing' and claimed_at < now() - make_interval(secs => ${staleClaimSeconds()}))
      order by received_at limit ${limit})
    ) pending
    order by rank, received_at`);
  return [...new Set(rowsOf<{ id: string }>(res).map((r) => r.id))];
}
