import { and, eq, sql } from "drizzle-orm";
import { rowsOf } from "../../../db/rows";
import { inboundLeads, type InboundLeadRow } from "../../../db/schema";
import { forbidden, invalid } from "../../errors/domain-errors";
import { sendJobEvent } from "../../jobs/dispatch";
import type { ChannelCtx } from "./channel-caller";
import { leadReceived } from "./lead-job";
import { parseLead } from "./parse-lead";
import { processLead } from "./process-lead";

export const MAX_LEAD_BYTES = 256 * 1024;
/** How long a sync request waits for a lead another worker is processing before answering 202. */
export const SYNC_WAIT_MS = 5_000;

export type SyncMode = "none" | "deal" | "assignment";

/**
 * A lead as a channel sent it: the exact bytes, the destination it named outside the body (if
 * any), how long to wait for the result (`sync`, or the channel's default), and the request's
 * trace kept with the lead (never credentials).
 */
export type LeadPost = { rawBody: Buffer; destination: string | null; sync: SyncMode | null; trace: Record<string, string> };

type Ids = { dealId: string | null; listingId: string | null; assignedToId: string | null };
/** What became of a posted lead; the webhook's answer is built from this (lib/inbound/lead-webhook.ts). */
export type LeadOutcome =
  /** Stored; processing in the background. */
  | { kind: "accepted" }
  /** Stored and processed in this call (sync). */
  | { kind: "created"; ids: Ids; idempotent: boolean }
  /** A repeat of an `originLeadId` already processed. */
  | { kind: "duplicate"; ids: Ids }
  /** A repeat of a lead still in flight, or a sync call that waited long enough. */
  | { kind: "processing"; dealId: string | null }
  /** Stored; processing failed (replayable from the channel's lead log). */
  | { kind: "failed_processing" }
  /** The hinted channel changed meanwhile: nothing stored; ask again with the channel as it is. */
  | { kind: "channel_changed" };

/**
 * Spec 2 §4, §2.9: parse leniently, store the lead (raw body, trace, parsed fields), and only then
 * answer. A repeated `originLeadId` of the channel never becomes a second lead: the unique index
 * decides, so 50 simultaneous posts of one lead store one row. The caller (a channel) is already
 * authenticated.
 */
export async function receiveLead(ctx: ChannelCtx, post: LeadPost): Promise<LeadOutcome> {
  const { db } = ctx;
  const channel = ctx.actor.channel;
  const stored = await storeLead(ctx, post);
  if (stored === null) return { kind: "channel_changed" };
  const lead = stored.lead;
  const sync = post.sync ?? (channel.leadIntakeConfig.syncResponse ? "deal" : "none");
  if (!stored.id) return repeatOutcome(ctx, lead.originLeadId!);
  // Committed: from here the lead cannot be lost. Wake the processing, or do it now for sync (no
  // wake-up then: a job run would only race this request for the lead; if this process dies first,
  // the sweep takes the lead).
  if (sync === "none") {
    sendJobEvent(leadReceived, { leadId: stored.id });
    return { kind: "accepted" };
  }
  return syncOutcome(db, stored.id, sync);
}

/**
 * Parses and stores the lead on the caller's channel. With a hinted channel the insert happens
 * only if the channel is unchanged; nothing stored then means "decide again" (null), since a
 * repeat and a changed channel both store nothing.
 */
async function storeLead(ctx: ChannelCtx, post: LeadPost): Promise<{ id: string | undefined; lead: ReturnType<typeof parseLead> } | null> {
  const { channel, hinted } = ctx.actor;
  let body: unknown;
  try {
    // The raw body keeps exactly what was sent; parseLead makes the parsed lead storable (a NUL or
    // lone surrogate is junk that never blocks a lead, spec 2 §2.9).
    body = JSON.parse(post.rawBody.toString("utf8"));
  } catch {
    throw invalid("The body is not valid JSON: send the lead as a JSON object.", "invalid_json");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw invalid("The body must be a JSON object with the lead's fields.", "invalid_json");
  const lead = parseLead(body as Record<string, unknown>, post.destination);
  const destination = lead.destination ?? "deal";
  if (!channel.destinations[destination]) throw forbidden(`The destination '${destination}' is not enabled on this channel.`, "destination_disabled");
  // A hinted channel stores the lead only if it is still as the hint says.
  const unchanged = hinted
    ? sql`exists (select 1 from marketing_channel_instances c
        where c.id = ${channel.id}::uuid and c.path_token = ${channel.pathToken} and c.active
          and c.secret is not distinct from ${channel.secret}
          and c.destinations = ${JSON.stringify(channel.destinations)}::jsonb
          and c.lead_intake_config = ${JSON.stringify(channel.leadIntakeConfig)}::jsonb)`
    : sql`true`;
  const [stored] = rowsOf<{ id: string }>(
    await ctx.db.execute(sql`
      insert into inbound_leads (tenant_id, channel_id, origin_lead_id, destination, raw_body, headers, lead)
      select ${ctx.tenantId}::uuid, ${channel.id}::uuid, ${lead.originLeadId}, ${destination}, ${post.rawBody.toString("utf8")}, ${JSON.stringify(post.trace)}::jsonb, ${JSON.stringify(lead)}::jsonb
      where ${unchanged}
      on conflict (channel_id, origin_lead_id) where origin_lead_id is not null do nothing
      returning id`),
  );
  return stored || !hinted ? { id: stored?.id, lead } : null;
}

function ids(lead: InboundLeadRow, sync: SyncMode): Ids {
  return {
    dealId: lead.destination === "deal" ? (lead.dealIds[0] ?? null) : null,
    listingId: lead.destination === "listing" ? lead.listingId : null,
    assignedToId: sync === "assignment" ? lead.assignedToId : null,
  };
}

/** A repeat of an `originLeadId`: `duplicate` once processed, `processing` while in flight. */
async function repeatOutcome(ctx: ChannelCtx, originLeadId: string): Promise<LeadOutcome> {
  const [lead] = await ctx.db
    .select()
    .from(inboundLeads)
    .where(and(eq(inboundLeads.channelId, ctx.actor.channel.id), eq(inboundLeads.originLeadId, originLeadId)))
    .limit(1);
  if (lead?.status === "processed") return { kind: "duplicate", ids: ids(lead, "assignment") };
  return { kind: "processing", dealId: lead?.dealIds[0] ?? null };
}

/** Process now; if another worker has the lead, wait for it up to SYNC_WAIT_MS, then `processing`. */
async function syncOutcome(db: ChannelCtx["db"], leadId: string, sync: SyncMode): Promise<LeadOutcome> {
  const deadline = Date.now() + SYNC_WAIT_MS;
  for (;;) {
    const r = await processLead(db, leadId);
    const lead = r.lead;
    if (lead?.status === "processed") return { kind: "created", ids: ids(lead, sync), idempotent: r.status === "done_before" };
    if (lead?.status === "failed") return { kind: "failed_processing" };
    if (Date.now() > deadline) return { kind: "processing", dealId: null };
    await new Promise((r) => setTimeout(r, 100));
  }
}
