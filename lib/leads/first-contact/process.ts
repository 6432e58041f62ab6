import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rowsOf } from "../../../db/rows";
import { firstContactRequests, inboundLeads, listings, marketingChannelInstances, members } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import { accessOf, type MemberActor } from "../../context/actor";
import type { MemberCtx } from "../../context/verb-context";
import { errorText } from "../../errors/error-text";
import type { QueueRound } from "../../jobs/drain";
import { logger } from "../../log/logger";
import type { SendAck } from "../../messaging/send/ack";
import { sendMessage } from "../../messaging/send/send-message";
import { recordEvent } from "../../outbox/record-event";
import type { ParsedLead } from "../inbound/parse-lead";
import { firstContactStop, nothingMatched, type GuardStop } from "./guards";
import { DEFAULT_DESTINATIONS, storedFirstContact, type FirstContact } from "./settings";

/** A claim older than this belongs to a run that died; the send's idempotency key keeps a retry from sending twice. */
const STALE_CLAIM_SECONDS = 300;
/** A gateway that cannot be reached is tried this many times in all, a minute apart. */
export const MAX_ATTEMPTS = 3;

type Claimed = { id: string; tenant_id: string; lead_id: string; marketing_channel_id: string; deal_id: string | null; attempts: number };

export type FirstContactOutcome = "sent" | "skipped" | "cancelled" | "retry" | "failed";

/**
 * One round of due first messages: each is checked by the guards, then sent as the member who
 * configured it through `sendMessage` (the same gates as a member's send: channel access, chat
 * privacy, opt-outs, idempotency keyed by the lead), or stopped with `first_contact.skipped`.
 */
export async function processFirstContacts(db: Db, limit: number): Promise<QueueRound & { outcomes: FirstContactOutcome[] }> {
  const claimed = rowsOf<Claimed>(
    await db.execute(sql`
      update first_contact_requests set status = 'sending', claimed_at = now(), attempts = attempts + 1
      where id in (
        select id from first_contact_requests
        where (status = 'pending' and send_at <= now())
           or (status = 'sending' and claimed_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
        order by send_at
        limit ${limit}
        for update skip locked)
      returning id, tenant_id, lead_id, marketing_channel_id, deal_id, attempts`),
  );
  let processed = 0;
  let failed = 0;
  const outcomes: FirstContactOutcome[] = [];
  for (const row of claimed) {
    try {
      outcomes.push(await processOne(db, row));
      processed++;
    } catch (err) {
      failed++;
      outcomes.push(await retryOrStop(db, row, null, errorText(err)));
    }
  }
  return { claimed: claimed.length, processed, failed, outcomes };
}

async function finish(db: Db, row: Claimed, set: Partial<typeof firstContactRequests.$inferInsert>): Promise<void> {
  await db
    .update(firstContactRequests)
    .set({ ...set, claimedAt: null, processedAt: new Date() })
    .where(eq(firstContactRequests.id, row.id));
}

/**
 * Emits `first_contact.skipped` (spec 2 §6: `reason`, `destination` per the channel setting,
 * `matched` ids only) about the lead's deal, and marks the request, in one transaction.
 */
async function skip(db: Db, row: Claimed, fc: FirstContact | null, stop: GuardStop, detail?: string): Promise<FirstContactOutcome> {
  const destination = fc?.destinations[stop.reason] ?? DEFAULT_DESTINATIONS[stop.reason];
  await inTenantTransaction(db, row.tenant_id, async (tx) => {
    await recordEvent(tx, {
      tenantId: row.tenant_id,
      eventName: "first_contact.skipped",
      entityType: row.deal_id ? "deal" : "inbound_lead",
      entityId: row.deal_id ?? row.lead_id,
      userId: null,
      data: { reason: stop.reason, destination, matched: stop.matched },
    });
    await tx
      .update(firstContactRequests)
      .set({ status: "skipped", outcome: detail ? `${stop.reason}: ${detail}` : stop.reason, matched: stop.matched, claimedAt: null, processedAt: new Date() })
      .where(eq(firstContactRequests.id, row.id));
  });
  logger().info({ leadId: row.lead_id, tenantId: row.tenant_id, reason: stop.reason, destination, detail }, "automatic first contact not sent");
  return "skipped";
}

/** A gateway that could not be reached (or an error) waits a minute and tries again; the last attempt stops as `guard_error`. */
async function retryOrStop(db: Db, row: Claimed, fc: FirstContact | null, why: string): Promise<FirstContactOutcome> {
  if (Number(row.attempts) < MAX_ATTEMPTS) {
    logger().warn({ leadId: row.lead_id, tenantId: row.tenant_id, attempts: row.attempts, why }, "automatic first contact will be tried again");
    await db
      .update(firstContactRequests)
      .set({ status: "pending", claimedAt: null, outcome: why, sendAt: new Date(Date.now() + 60_000) })
      .where(eq(firstContactRequests.id, row.id));
    return "retry";
  }
  await skip(db, row, fc, { reason: "guard_error", matched: nothingMatched() }, why);
  return "failed";
}

function firstName(name: string | null): string {
  const first = (name ?? "").trim().split(/\s+/)[0];
  return first && !first.includes("@") && !/^\+?\d/.test(first) ? first : "";
}

/** `{{name}}` and `{{listing}}` filled in; an unknown name leaves no dangling comma ("Olá, !"). */
export function renderFirstContactText(text: string, name: string, listing: string | null): string {
  return text
    .replace(/\{\{\s*name\s*\}\}/g, name)
    .replace(/\{\{\s*listing\s*\}\}/g, listing ?? "o imóvel")
    .replace(/[ \t]+([,!?.])/g, "$1")
    .trim();
}

async function processOne(db: Db, row: Claimed): Promise<FirstContactOutcome> {
  const [lead] = await db.select().from(inboundLeads).where(eq(inboundLeads.id, row.lead_id));
  const [mc] = await db
    .select({ firstContact: marketingChannelInstances.firstContact })
    .from(marketingChannelInstances)
    .where(and(eq(marketingChannelInstances.id, row.marketing_channel_id), eq(marketingChannelInstances.tenantId, row.tenant_id)));
  const fc = storedFirstContact(mc?.firstContact);
  if (!lead || !fc?.enabled) {
    await finish(db, row, { status: "cancelled", outcome: "first contact turned off before it was due" });
    return "cancelled";
  }
  const parsed = lead.lead as unknown as ParsedLead;
  const phone = parsed.contactPhone;
  if (!phone) {
    await finish(db, row, { status: "cancelled", outcome: "the lead has no phone" });
    return "cancelled";
  }

  let stop: GuardStop | null;
  try {
    stop = await firstContactStop(db, row.tenant_id, { phone, listingId: lead.listingId, dealIds: lead.dealIds ?? [] });
  } catch (err) {
    // A check that cannot be made is a stop: nothing is sent unless every guard said yes.
    logger().warn({ err, leadId: row.lead_id }, "first contact guard failed");
    stop = { reason: "guard_error", matched: nothingMatched() };
  }
  if (stop) return skip(db, row, fc, stop);

  const [member] = await db
    .select()
    .from(members)
    .where(and(eq(members.id, fc.configuredById), eq(members.tenantId, row.tenant_id), eq(members.active, true)));
  if (!member) return skip(db, row, fc, { reason: "guard_error", matched: nothingMatched() }, "the member who configured it is no longer active");
  // The member acts as with a broad key of their role; idempotency keys are scoped by this id.
  const actor: MemberActor = {
    kind: "member",
    tenantId: row.tenant_id,
    userId: member.id,
    role: member.role,
    scope: "broad",
    keyId: member.id,
    access: accessOf(member.role, "broad"),
  };
  const ctx: MemberCtx = { db, tenantId: row.tenant_id, actor };

  let listingTitle: string | null = null;
  if (lead.listingId) {
    const [l] = await db
      .select({ title: listings.title })
      .from(listings)
      .where(and(eq(listings.id, lead.listingId), eq(listings.tenantId, row.tenant_id)));
    listingTitle = l?.title ?? null;
  }
  const content = fc.templateId
    ? { kind: "template" as const, templateId: fc.templateId }
    : { kind: "text" as const, text: renderFirstContactText(fc.text ?? "", firstName(parsed.contactName), listingTitle) };
  const ack: SendAck = await sendMessage(ctx, {
    mode: "send",
    channelId: fc.messagingChannelId,
    chatId: `${phone.replace(/\D/g, "")}@c.us`,
    content,
    dealId: row.deal_id ?? undefined,
    idempotencyKey: `first-contact:${row.lead_id}`,
  });
  if (ack.status === "sent") {
    await finish(db, row, { status: "sent", outcome: "sent", messageId: ack.messageId });
    return "sent";
  }
  if (ack.reason === "opt_out") return skip(db, row, fc, { reason: "opt_out", matched: nothingMatched() }, "the send gate found the phone opted out");
  if (ack.reason === "channel_unreachable" || ack.reason === "channel_timeout") return retryOrStop(db, row, fc, `send ${ack.status}: ${ack.reason}`);
  return skip(db, row, fc, { reason: "guard_error", matched: nothingMatched() }, `send ${ack.status}: ${ack.reason}`);
}
