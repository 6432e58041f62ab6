import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { jsonColumn } from "../../../db/rows";
import { inboundLeads, marketingChannelInstances, type InboundLeadRow } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import { loadTenant } from "../../tenants/load-tenant";
import type { ParsedLead } from "./parse-lead";
import { claimLeads, finishClaimed, isCapture, referencedListing, saveLeadWrites, writeLead, type LeadOutcome, type LeadWrite } from "./process-lead";

/** Leads written in one tenant transaction: big enough to share its fixed costs, small enough to hold the tenant's lock briefly. */
export const LEADS_PER_TRANSACTION = 25;

/**
 * Processes many leads as `processLead` does each, exactly once, but a tenant's deal leads share
 * one transaction (its tenant lock, tenant and channel reads, one events statement and one commit)
 * instead of paying for all of it per lead: a burst from a portal is processed several times faster.
 * If anything in a shared transaction fails, it rolls back whole and its leads are processed one
 * by one, so one bad lead is marked `failed` alone and the others go through. Owner captures
 * (geocoded outside any transaction) always go one by one.
 */
export async function processLeads(db: DbOrTx, ids: string[]): Promise<LeadOutcome[]> {
  const claimed = await claimLeads(db, ids);
  const outcomes: LeadOutcome[] = [];
  const byTenant = new Map<string, typeof claimed>();
  for (const c of claimed) {
    if (isCapture(c)) outcomes.push(await finishClaimed(db, c));
    else byTenant.set(c.tenant_id, [...(byTenant.get(c.tenant_id) ?? []), c]);
  }
  for (const [tenantId, leads] of byTenant) {
    for (let i = 0; i < leads.length; i += LEADS_PER_TRANSACTION) {
      const chunk = leads.slice(i, i + LEADS_PER_TRANSACTION);
      try {
        outcomes.push(...(await processTogether(db, tenantId, chunk.map((c) => c.id))));
      } catch {
        // Rolled back whole: nothing of the chunk was written. One by one, each lead succeeds or fails alone.
        for (const c of chunk) outcomes.push(await finishClaimed(db, c));
      }
    }
  }
  return outcomes;
}

async function processTogether(db: DbOrTx, tenantId: string, ids: string[]): Promise<LeadOutcome[]> {
  return inTenantTransaction(db, tenantId, async (tx) => {
    const [rows, tenant] = await Promise.all([
      tx.select().from(inboundLeads).where(and(inArray(inboundLeads.id, ids), eq(inboundLeads.tenantId, tenantId))).for("update"),
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
