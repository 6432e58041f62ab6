import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { jsonColumn } from "../../../db/rows";
import { inboundLeads, marketingChannelInstances, type InboundLeadRow } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import { loadTenant } from "../../tenants/load-tenant";
import type { ParsedLead } from "./parse-lead";
import { logger } from "../../log/logger";
import { claimLeads, finishClaimed, processLead, releaseClaims, type Claimed, type LeadOutcome } from "./process-lead";
import { referencedListing, saveLeadWrites, writeLead, type LeadWrite } from "./write-lead";

/** Leads written in one tenant transaction: big enough to share its fixed costs, small enough to hold the tenant's lock briefly. */
const LEADS_PER_TRANSACTION = 25;

/**
 * Processes many leads as `processLead` does each, exactly once, but a tenant's deal leads share
 * one transaction (its tenant lock, tenant and channel reads, one events statement and one commit)
 * instead of paying for all of it per lead: a burst from a portal is processed several times faster.
 * Leads are claimed 25 at a time, just before their transaction, so a claim never waits behind
 * other work long enough to go stale. If anything in a shared transaction fails, it rolls back
 * whole and its leads are processed one by one, so one bad lead is marked `failed` alone and the
 * others go through. Owner captures (geocoded outside any transaction) go one by one, claimed
 * one at a time. Returns the leads this run processed or failed.
 */
export async function processLeads(db: DbOrTx, ids: string[]): Promise<LeadOutcome[]> {
  const outcomes: LeadOutcome[] = [];
  for (let i = 0; i < ids.length; i += LEADS_PER_TRANSACTION) {
    const slice = ids.slice(i, i + LEADS_PER_TRANSACTION);
    const claimed = await claimLeads(db, slice, true);
    outcomes.push(...(await writeClaimed(db, claimed)));
    // The rest: owner captures, or leads another run holds or finished (one query each, then skipped).
    const taken = new Set(claimed.map((c) => c.id));
    for (const id of slice.filter((id) => !taken.has(id))) {
      const r = await processLead(db, id);
      if (r.status === "processed" || r.status === "failed") outcomes.push(r);
    }
  }
  return outcomes;
}

/** Claimed deal leads, a tenant's together; whatever happens, none is left claimed and unfinished. */
async function writeClaimed(db: DbOrTx, claimed: Claimed[]): Promise<LeadOutcome[]> {
  const outcomes: LeadOutcome[] = [];
  const finished = new Set<string>();
  const byTenant = new Map<string, Claimed[]>();
  for (const c of claimed) byTenant.set(c.tenant_id, [...(byTenant.get(c.tenant_id) ?? []), c]);
  try {
    for (const [tenantId, leads] of byTenant) {
      try {
        const done = await processTogether(
          db,
          tenantId,
          leads.map((c) => c.id),
        );
        outcomes.push(...done);
      } catch (err) {
        // Rolled back whole: nothing of the group was written. One by one, each lead succeeds or fails alone.
        logger().warn({ err, tenantId, leadIds: leads.map((c) => c.id) }, "a batch of leads failed; processing them one by one");
        for (const c of leads) outcomes.push(await finishClaimed(db, c));
      }
      for (const c of leads) finished.add(c.id);
    }
  } finally {
    const left = claimed.filter((c) => !finished.has(c.id)).map((c) => c.id);
    // Something failed outside any lead (the database went away): give the claims back at once
    // rather than leaving them to go stale. If that fails too, the stale-claim sweep takes them.
    if (left.length) await releaseClaims(db, left).catch((err) => logger().warn({ err, leadIds: left }, "could not release lead claims"));
  }
  return outcomes;
}

async function processTogether(db: DbOrTx, tenantId: string, ids: string[]): Promise<LeadOutcome[]> {
  return inTenantTransaction(db, tenantId, async (tx) => {
    const [rows, tenant] = await Promise.all([
      tx
        .select()
        .from(inboundLeads)
        .where(and(inArray(inboundLeads.id, ids), eq(inboundLeads.tenantId, tenantId)))
        .for("update"),
      loadTenant(tx, tenantId),
    ]);
    const channelIds = [...new Set(rows.map((r) => r.channelId))];
    const channels = await tx
      .select()
      .from(marketingChannelInstances)
      .where(and(inArray(marketingChannelInstances.id, channelIds), eq(marketingChannelInstances.tenantId, tenantId)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const untouched: LeadOutcome[] = [];
    const mine = ids.flatMap((id) => {
      const row = byId.get(id);
      // Someone took the lead over after our claim went stale and finished it: nothing to do.
      if (row?.status === "processing") return [row];
      untouched.push({ status: "done_before", lead: row ?? null });
      return [];
    });
    const write = async (row: InboundLeadRow) => {
      const ref = await referencedListing(tx, tenantId, jsonColumn<ParsedLead>(row.lead));
      return writeLead(tx, row, { tenant, channel: channels.find((c) => c.id === row.channelId), ref }, null);
    };
    // Leads of different people are written side by side (their statements pipelined on the
    // transaction's connection); a lead naming someone an earlier lead named waits for it, so it
    // finds that contact instead of making a second one.
    const writes: LeadWrite[] = [];
    for (const wave of contactWaves(mine)) writes.push(...(await allOrThrow(wave.map(write))));
    const saved = await saveLeadWrites(tx, writes);
    return [...saved.map((lead) => ({ status: "processed" as const, lead })), ...untouched];
  });
}

/**
 * `Promise.all`, but it waits for every promise before throwing the first failure: a lead still
 * writing when another fails must not send its next statement after the rollback, where it would
 * run outside the transaction.
 */
async function allOrThrow<T>(work: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/**
 * The leads in groups that share no contact key (phone, e-mail, CPF), in arrival order: a lead
 * goes one group after the last earlier lead it shares a key with.
 */
export function contactWaves(rows: InboundLeadRow[]): InboundLeadRow[][] {
  const waveOfKey = new Map<string, number>();
  const waves: InboundLeadRow[][] = [];
  for (const row of rows) {
    const lead = jsonColumn<ParsedLead>(row.lead);
    const keys = [
      lead.contactPhone && `p:${lead.contactPhone}`,
      lead.contactEmail && `e:${lead.contactEmail.toLowerCase()}`,
      lead.cpf && `c:${lead.cpf}`,
    ].filter((k): k is string => Boolean(k));
    const wave = Math.max(-1, ...keys.map((k) => waveOfKey.get(k) ?? -1)) + 1;
    for (const k of keys) waveOfKey.set(k, wave);
    (waves[wave] ??= []).push(row);
  }
  return waves;
}
