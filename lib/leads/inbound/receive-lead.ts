import { and, eq, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { DbOrTx } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { inboundLeads, marketingChannelInstances, type InboundLeadRow, type MarketingChannelInstanceRow } from "../../../db/schema";
import { DomainError, forbidden, invalid, notFound } from "../../errors/domain-errors";
import { readCappedBody } from "../../http/read-json";
import { verifySignature } from "../channel-auth";
import { sendJobEvent } from "../../jobs/dispatch";
import { leadReceived } from "./lead-job";
import { parseLead } from "./parse-lead";
import { processLead } from "./process-lead";

export const MAX_LEAD_BYTES = 256 * 1024;
/** How long a sync request waits for a lead another worker is processing before answering 202. */
export const SYNC_WAIT_MS = 5_000;

/** Headers kept with the raw body: enough to trace and re-verify a lead, never credentials. */
const KEPT_HEADERS = ["content-type", "user-agent", "x-forwarded-for", "x-request-id", "x-inbound-destination", "x-signature", "x-hmac-sha256"];

type Answer = { status: number; body: Record<string, unknown> };
export type SyncMode = "none" | "deal" | "assignment";

/**
 * Channels recently seen, by path token: a hint that saves the channel's read on most posts. A
 * hint is never trusted on its own: the lead is stored only if the channel still has that token,
 * is active and has the same secret, destinations and intake settings (checked by the insert
 * itself), so a rotated token, a deactivation or a new secret takes effect at once, as without it.
 */
const channelHints = new LRUCache<string, MarketingChannelInstanceRow>({ max: 1000, ttl: 60_000 });

/**
 * `POST /api/webhooks/channels/{pathToken}` (spec 2 §4, §2.9): authenticate, parse leniently,
 * store the lead (raw body, headers, parsed fields) and only then answer. A repeated
 * `originLeadId` of the channel never becomes a second lead: the unique index decides, so 50
 * simultaneous posts of one lead store one row.
 */
export async function receiveLead(db: DbOrTx, pathToken: string, req: Request): Promise<Answer> {
  const hint = channelHints.get(pathToken);
  let channel = hint ?? (await channelByToken(db, pathToken));
  const raw = await readCappedBody(req, MAX_LEAD_BYTES, () => new DomainError("too_large", "payload_too_large", `The lead is larger than ${MAX_LEAD_BYTES / 1024} KB.`));
  let attempt: Stored | null;
  try {
    attempt = await storeLead(db, channel, raw, req.headers, Boolean(hint));
  } catch (err) {
    // Refused by what the hint said (its secret or destinations may have changed): decide again
    // on the channel as it is. A body that is not JSON is refused whatever the channel.
    if (!hint || !(err instanceof DomainError) || (err.kind !== "unauthorized" && err.kind !== "forbidden")) throw err;
    attempt = null;
  }
  if (!attempt) {
    // The hinted channel changed (or the lead is a repeat): the channel as it is now decides.
    channelHints.delete(pathToken);
    channel = await channelByToken(db, pathToken);
    attempt = (await storeLead(db, channel, raw, req.headers, false))!;
  }
  channelHints.set(pathToken, channel);
  const { stored, lead } = attempt;
  const sync = syncMode(new URL(req.url).searchParams.get("sync"), channel);
  if (!stored) return repeatAnswer(db, channel, lead.originLeadId!);
  // Committed: from here the lead cannot be lost. Wake the processing, or do it now for sync (no
  // wake-up then: a job run would only race this request for the lead; if this process dies first,
  // the sweep takes the lead).
  if (sync === "none") {
    sendJobEvent(leadReceived, { leadId: stored.id });
    return { status: 202, body: { ok: true, accepted: true } };
  }
  return syncAnswer(db, stored.id, sync);
}

type Stored = { stored: { id: string } | undefined; lead: ReturnType<typeof parseLead> };

/**
 * Verifies, parses and stores the lead on this channel. With `guarded`, the channel is a hint and
 * the insert happens only if the channel is unchanged; nothing stored then means "decide again"
 * (null), since a repeat and a changed channel both store nothing.
 */
async function storeLead(db: DbOrTx, channel: MarketingChannelInstanceRow, raw: Buffer, reqHeaders: Headers, guarded: boolean): Promise<Stored | null> {
  if (channel.secret) verifySignature(channel.secret, reqHeaders, raw);
  let body: unknown;
  try {
    // The raw body keeps exactly what was sent; parseLead makes the parsed lead storable (a NUL or
    // lone surrogate is junk that never blocks a lead, spec 2 §2.9).
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    throw invalid("The body is not valid JSON: send the lead as a JSON object.", "invalid_json");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw invalid("The body must be a JSON object with the lead's fields.", "invalid_json");
  const lead = parseLead(body as Record<string, unknown>, reqHeaders.get("x-inbound-destination"));
  const destination = lead.destination ?? "deal";
  if (!channel.destinations[destination]) throw forbidden(`The destination '${destination}' is not enabled on this channel.`, "destination_disabled");

  const headers = Object.fromEntries(KEPT_HEADERS.flatMap((h) => (reqHeaders.get(h) ? [[h, reqHeaders.get(h)!.slice(0, 500)]] : [])));
  // A hinted channel stores the lead only if it is still as the hint says.
  const unchanged = guarded
    ? sql`exists (select 1 from marketing_channel_instances c
        where c.id = ${channel.id}::uuid and c.path_token = ${channel.pathToken} and c.active
          and c.secret is not distinct from ${channel.secret}
          and c.destinations = ${JSON.stringify(channel.destinations)}::jsonb
          and c.lead_intake_config = ${JSON.stringify(channel.leadIntakeConfig)}::jsonb)`
    : sql`true`;
  const [stored] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into inbound_leads (tenant_id, channel_id, origin_lead_id, destination, raw_body, headers, lead)
      select ${channel.tenantId}::uuid, ${channel.id}::uuid, ${lead.originLeadId}, ${destination}, ${raw.toString("utf8")}, ${JSON.stringify(headers)}::jsonb, ${JSON.stringify(lead)}::jsonb
      where ${unchanged}
      on conflict (channel_id, origin_lead_id) where origin_lead_id is not null do nothing
      returning id`),
  );
  return stored || !guarded ? { stored, lead } : null;
}

export async function channelByToken(db: DbOrTx, pathToken: string): Promise<MarketingChannelInstanceRow> {
  const unknown = () => notFound("Unknown or inactive channel.");
  if (!/^chnl_[A-Za-z0-9_-]{16,100}$/.test(pathToken)) throw unknown();
  const [c] = await db.select().from(marketingChannelInstances).where(eq(marketingChannelInstances.pathToken, pathToken)).limit(1);
  if (!c || !c.active) throw unknown();
  return c;
}

function syncMode(param: string | null, channel: MarketingChannelInstanceRow): SyncMode {
  if (param === "assignment") return "assignment";
  if (param === "true" || param === "deal") return "deal";
  if (param === "false") return "none";
  return channel.leadIntakeConfig.syncResponse ? "deal" : "none";
}

function ids(lead: InboundLeadRow, sync: SyncMode) {
  return {
    dealId: lead.destination === "deal" ? (lead.dealIds[0] ?? null) : null,
    listingId: lead.destination === "listing" ? lead.listingId : null,
    assignedToId: sync === "assignment" ? lead.assignedToId : null,
  };
}

/** A repeat of an `originLeadId`: 200 `duplicate` once processed, 202 `processing` while in flight. */
async function repeatAnswer(db: DbOrTx, channel: MarketingChannelInstanceRow, originLeadId: string): Promise<Answer> {
  const [lead] = await db
    .select()
    .from(inboundLeads)
    .where(and(eq(inboundLeads.channelId, channel.id), eq(inboundLeads.originLeadId, originLeadId)))
    .limit(1);
  if (lead?.status === "processed") {
    return { status: 200, body: { ok: true, status: "duplicate", duplicate: true, idempotent: true, ...ids(lead, "assignment") } };
  }
  return { status: 202, body: { ok: true, status: "processing", dealId: lead?.dealIds[0] ?? null } };
}

/** Process now; if another worker has the lead, wait for it up to SYNC_WAIT_MS, then 202 `processing`. */
async function syncAnswer(db: DbOrTx, leadId: string, sync: SyncMode): Promise<Answer> {
  const deadline = Date.now() + SYNC_WAIT_MS;
  for (;;) {
    const r = await processLead(db, leadId);
    const lead = r.lead;
    if (lead?.status === "processed") return { status: 200, body: { ok: true, status: "created", ...ids(lead, sync), idempotent: r.status === "done_before" } };
    if (lead?.status === "failed") return { status: 202, body: { ok: true, status: "failed_processing", accepted: true, error: "Stored; processing failed and can be replayed from the channel's lead log." } };
    if (Date.now() > deadline) return { status: 202, body: { ok: true, status: "processing", dealId: null } };
    await new Promise((r) => setTimeout(r, 100));
  }
}
