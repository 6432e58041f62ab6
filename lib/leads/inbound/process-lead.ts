import { linkChatLeads } from "../../messaging/web-chat/link-lead";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../../db/client";
import { jsonColumn, rowsOf } from "../../../db/rows";
import {
  inboundLeads,
  listings,
  marketingChannelInstances,
  members,
  properties,
  tasks,
  type InboundLeadRow,
  type ListingRow,
  type MarketingChannelInstanceRow,
  type PropertyRow,
} from "../../../db/schema";
import type { TenantRow } from "../../tenants/tenant-row";
import { inTenantTransaction } from "../../../db/transaction";
import type { IntegrationActor } from "../../context/actor";
import { writeNewDeal } from "../../deals/deals";
import type { CreateDealInput } from "../../deals/schemas";
import { config } from "../../config";
import { geocode, type Point } from "../../geo/geocode";
import { recordEvent, recordEvents, type NewEvent } from "../../outbox/record-event";
import { UUID_PATTERN } from "../../schemas/uuid";
import { loadTenant } from "../../tenants/load-tenant";
import { captureListing } from "./capture-listing";
import type { ParsedLead } from "./parse-lead";
import { errorText } from "../../errors/error-text";
import { onLeadDeals } from "../../agents/triggers";
import { queueFirstContact } from "../first-contact/queue";
import { storedFirstContact } from "../first-contact/settings";

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

export type DealInputs = {
  tenant: TenantRow;
  channel: MarketingChannelInstanceRow | undefined;
  ref: { listing: ListingRow; property: PropertyRow } | null | undefined;
};

/** The tenant, the channel and the referenced listing of a lead, read at once. */
async function dealInputs(tx: DbOrTx, tenantId: string, channelId: string, lead: ParsedLead): Promise<DealInputs> {
  const [tenant, [channel], ref] = await Promise.all([
    loadTenant(tx, tenantId),
    tx
      .select()
      .from(marketingChannelInstances)
      .where(and(eq(marketingChannelInstances.id, channelId), eq(marketingChannelInstances.tenantId, tenantId)))
      .limit(1),
    // A pricing-tool capture writes a listing first: its lead looks up references after that.
    lead.pricing?.captureProperty ? undefined : referencedListing(tx, tenantId, lead),
  ]);
  return { tenant, channel, ref };
}

/** What a lead's deals leave to write: its events and its row's outcome (saved per batch by `saveLeadWrites`). */
export type LeadWrite = { id: string; events: NewEvent[]; set: Partial<InboundLeadRow> };

/**
 * A deal lead's deal(s), contact and visit task, written in the caller's tenant transaction; its
 * attribution events and its processed row are returned, so a batch saves them all at once.
 */
export async function writeLead(tx: Tx, row: InboundLeadRow, known: DealInputs, point: Point | null): Promise<LeadWrite> {
  const { tenant, channel } = known;
  const lead = row.lead as unknown as ParsedLead;
  const decision: string[] = [];
  const actor: IntegrationActor = { kind: "integration", tenantId: row.tenantId, integration: "marketing_channel", id: row.channelId };
  // A pricing-tool owner who wants to sell: the same owner capture as a channel's, linked to the deal.
  const captured = lead.pricing?.captureProperty ? await captureListing(tx, row, lead, actor, point, decision) : null;
  const ref = known.ref === undefined ? await referencedListing(tx, row.tenantId, lead) : known.ref;
  if (ref) decision.push(`listing ${ref.listing.listingCode} referenced: its property data fills the deal`);
  else if (lead.listingRef || lead.listingCode || lead.propertyRef)
    decision.push("referenced listing not found in this tenant: the lead's own property data is used");

  const contact = {
    name: lead.contactName ?? lead.contactEmail ?? lead.contactPhone ?? "Lead sem nome",
    email: lead.contactEmail ?? undefined,
    phone: lead.contactPhone ?? undefined,
    cpf: lead.cpf ?? undefined,
  };
  const types: ("sale" | "rental")[] = lead.businessType === "both" ? ["sale", "rental"] : [lead.businessType];
  const captador = ref ? await listingBroker(tx, tenant, ref.property.assignedToId) : null;
  if (captador) decision.push(`the tenant prefers the listing's broker ("captador first"): ${captador}`);
  const dealIds: string[] = [];
  const events: NewEvent[] = [];
  let assignedToId: string | null = null;
  for (const dealType of types) {
    const data: CreateDealInput = {
      title: `${contact.name} · ${channel?.name ?? "canal"}${types.length > 1 ? ` (${dealType === "sale" ? "venda" : "locação"})` : ""}`,
      dealType,
      currency: "BRL",
      contacts: [{ ...contact, role: lead.pricing ? "seller" : dealType === "rental" ? "tenant" : "buyer" }],
      custom: lead.pricing ? ownerNotes(lead, captured) : searchPreferences(lead, ref),
      marketingChannelInstanceId: row.channelId,
      ...(captador ? { assignedToId: captador } : {}),
      utmSource: lead.attribution.utmSource ?? null,
      utmMedium: lead.attribution.utmMedium ?? null,
      utmCampaign: lead.attribution.utmCampaign ?? null,
      source: lead.source ?? channel?.kind ?? null,
      campaign: lead.campaign ?? null,
    } as CreateDealInput;
    const deal = await writeNewDeal(tx, actor, data, { tenant, channel });
    dealIds.push(deal.id);
    assignedToId ??= deal.assignedToId;
    if (captador) {
      events.push({
        tenantId: row.tenantId,
        eventName: "distribution.assigned",
        entityType: "deal",
        entityId: deal.id,
        userId: null,
        data: { dealId: deal.id, assignedToId: captador, marketingChannelInstanceId: row.channelId, method: "listing_broker" },
      });
    }
    decision.push(
      captador
        ? `${dealType} deal assigned to the listing's broker ${captador}`
        : deal.distributed
          ? `${dealType} deal assigned to ${deal.assignedToId} by the channel's round robin`
          : `${dealType} deal left unassigned: the channel's queue has no active member`,
    );
    const attribution = {
      dealId: deal.id,
      marketingChannelInstanceId: row.channelId,
      ...lead.attribution,
      source: data.source,
      campaign: lead.campaign,
      externalId: lead.externalId,
      originLeadId: lead.originLeadId,
    };
    events.push({ tenantId: row.tenantId, eventName: "deal.attribution.tracked", entityType: "deal", entityId: deal.id, userId: null, data: attribution });
    if (ref) {
      events.push({
        tenantId: row.tenantId,
        eventName: "listing.attribution.tracked",
        entityType: "listing",
        entityId: ref.listing.id,
        userId: null,
        data: { ...attribution, listingId: ref.listing.id },
      });
    }
  }
  if (lead.visit) {
    const taskId = await createVisitTask(tx, row.tenantId, lead, {
      dealId: dealIds[0],
      listingId: ref?.listing.id ?? null,
      assigneeId: assignedToId,
      contact: contact.name,
    });
    decision.push(`visit task ${taskId} for ${lead.visit.date} ${lead.visit.time}`);
  }
  const firstContact = storedFirstContact(channel?.firstContact);
  if (firstContact?.enabled && dealIds.length) {
    if (!contact.phone) decision.push("no automatic first contact: the lead has no phone");
    else {
      const sendAt = new Date(Date.now() + firstContact.delaySeconds * 1000);
      const queued = await queueFirstContact(tx, { tenantId: row.tenantId, leadId: row.id, marketingChannelId: row.channelId, dealId: dealIds[0], sendAt });
      if (queued) decision.push(`automatic first contact queued for ${sendAt.toISOString()}`);
    }
  }
  return {
    id: row.id,
    events,
    set: { status: "processed", dealIds, listingId: captured ?? ref?.listing.id ?? null, assignedToId, decision, error: null, processedAt: new Date() },
  };
}

/**
 * The events of the leads (one statement, in lead order) and their processed rows; the row updates
 * are sent together, so the driver pipelines them on the transaction's connection.
 */
export async function saveLeadWrites(tx: Tx, writes: LeadWrite[]): Promise<InboundLeadRow[]> {
  // A plain Promise.all is safe here: every update is sent before any answer comes back, so no
  // statement can follow a rollback (see allOrThrow in process-batch.ts).
  await recordEvents(
    tx,
    writes.flatMap((w) => w.events),
  );
  const rows = (await Promise.all(writes.map((w) => tx.update(inboundLeads).set(w.set).where(eq(inboundLeads.id, w.id)).returning()))).map(([r]) => r);
  // Agents whose trigger is `lead_created` take the new leads' conversations from here.
  const byTenant = new Map<string, { leadId: string; dealIds: string[] }[]>();
  for (const r of rows) {
    if (r.status !== "processed" || !r.dealIds?.length) continue;
    byTenant.set(r.tenantId, [...(byTenant.get(r.tenantId) ?? []), { leadId: r.id, dealIds: r.dealIds }]);
  }
  for (const [tenantId, leads] of byTenant) await onLeadDeals(tx, tenantId, leads);
  // A web chat whose visitor left a contact is linked to the deal its lead became.
  await linkChatLeads(
    tx,
    writes.map((w) => w.id),
  );
  return rows;
}

export async function referencedListing(tx: DbOrTx, tenantId: string, lead: ParsedLead): Promise<{ listing: ListingRow; property: PropertyRow } | null> {
  const byId = [lead.listingRef, lead.propertyRef].find((v) => v && UUID_PATTERN.test(v));
  const byCode = [lead.listingRef, lead.listingCode, lead.propertyRef].find((v) => v && !UUID_PATTERN.test(v));
  const where = byId
    ? and(eq(listings.tenantId, tenantId), sql`(${listings.id} = ${byId.toLowerCase()}::uuid or ${listings.propertyId} = ${byId.toLowerCase()}::uuid)`)
    : byCode
      ? and(eq(listings.tenantId, tenantId), sql`upper(${listings.listingCode}) = ${byCode.toUpperCase()}`)
      : undefined;
  if (!where) return null;
  const [hit] = await tx.select().from(listings).innerJoin(properties, eq(properties.id, listings.propertyId)).where(where).limit(1);
  return hit ? { listing: hit.listings, property: hit.properties } : null;
}

/** Deal `custom` search preferences from the referenced listing, or else from the lead's own property data. */
function searchPreferences(lead: ParsedLead, ref: { listing: ListingRow; property: PropertyRow } | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (ref) {
    out.leadListings = [{ listingId: ref.listing.id }];
    out.propertyTypes = [ref.property.type];
    if (ref.property.bedrooms !== null && ref.property.bedrooms <= 99) out.bedrooms = ref.property.bedrooms;
    if (ref.listing.price) out.budget = Number(ref.listing.price);
    if (ref.property.neighborhood) out.locations = [ref.property.neighborhood];
  } else {
    // Only values the typed preference keys accept: a junk value stays on the lead, never fails it.
    if (typeof lead.property.propertyType === "string") out.propertyTypes = [lead.property.propertyType.slice(0, 120)];
    const beds = lead.property.bedrooms;
    if (typeof beds === "number" && Number.isInteger(beds) && beds <= 99) out.bedrooms = beds;
    if (typeof lead.property.price === "number") out.budget = lead.property.price;
    if (typeof lead.property.totalArea === "number") out.minArea = lead.property.totalArea;
    const place = lead.address.neighborhood ?? lead.address.city;
    if (place) out.locations = [place.slice(0, 120)];
  }
  if (lead.message) out.additionalNotes = lead.message.slice(0, 2000);
  return out;
}

/** A pricing-tool owner's deal: not search preferences but what they asked, and their captured listing. */
function ownerNotes(lead: ParsedLead, capturedListingId: string | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (lead.message) out.additionalNotes = lead.message.slice(0, 2000);
  if (capturedListingId) out.leadListings = [{ listingId: capturedListingId }];
  return out;
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

/** The "captador first" rule: the referenced listing's broker, when the tenant enables it and the broker is active. */
async function listingBroker(tx: DbOrTx, tenant: TenantRow, memberId: string | null): Promise<string | null> {
  if (!memberId || !tenant.settings.leadDistribution.preferListingBroker) return null;
  const tenantId = tenant.id;
  const [m] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.tenantId, tenantId), eq(members.active, true)))
    .limit(1);
  return m?.id ?? null;
}

/**
 * A visit the lead asked for (`visitDate` + `visitTime`, São Paulo time) becomes a task of the
 * deal's broker, with `task.created`.
 */
async function createVisitTask(
  tx: DbOrTx,
  tenantId: string,
  lead: ParsedLead,
  link: { dealId: string; listingId: string | null; assigneeId: string | null; contact: string },
): Promise<string> {
  const visit = lead.visit!;
  const dueAt = new Date(`${visit.date}T${visit.time}:00-03:00`);
  const [task] = await tx
    .insert(tasks)
    .values({
      tenantId,
      title: `Visita: ${link.contact}`,
      type: "visit",
      dealId: link.dealId,
      listingId: link.listingId,
      assigneeId: link.assigneeId,
      dueAt,
      notes: visit.notes,
    })
    .returning();
  await recordEvent(tx, {
    tenantId,
    eventName: "task.created",
    entityType: "task",
    entityId: task.id,
    userId: null,
    data: { taskId: task.id, type: "visit", dealId: task.dealId, listingId: task.listingId, assigneeId: task.assigneeId, dueAt: dueAt.toISOString() },
  });
  return task.id;
}
