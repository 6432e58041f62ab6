import { linkChatLeads } from "../../messaging/web-chat/link-lead";
import { attachVisitorInterests } from "../../visitors/attach-interests";
import { DomainError } from "../../errors/domain-errors";
import { jsonColumn } from "../../../db/rows";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../../db/client";
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
import type { IntegrationActor } from "../../context/actor";
import { writeNewDeal } from "../../deals/deals";
import type { CreateDealInput } from "../../deals/schemas";
import type { Point } from "../../geo/geocode";
import { recordEvent, recordEvents, type NewEvent } from "../../outbox/record-event";
import { UUID_PATTERN } from "../../schemas/uuid";
import { loadTenant } from "../../tenants/load-tenant";
import { captureListing } from "./capture-listing";
import type { ParsedLead } from "./parse-lead";
import { onLeadDeals } from "../../agents/triggers";
import { queueFirstContact } from "../first-contact/queue";
import { storedFirstContact } from "../first-contact/settings";

/*
 * Writing a claimed deal lead (process-lead.ts claims; process-batch.ts batches): its deal(s),
 * contact, visit task, attribution events and processed row, all in the caller's tenant transaction.
 */

export type DealInputs = {
  tenant: TenantRow;
  channel: MarketingChannelInstanceRow | undefined;
  ref: { listing: ListingRow; property: PropertyRow } | null | undefined;
};

/** The tenant, the channel and the referenced listing of a lead, read at once. */
export async function dealInputs(tx: DbOrTx, tenantId: string, channelId: string, lead: ParsedLead): Promise<DealInputs> {
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
  // A site visitor who identified: its favourites (and what it compared) become the deal's interests.
  for (const r of rows) {
    const visitor = jsonColumn<ParsedLead>(r.lead).visitor;
    // A site deleted since the form was sent links nothing (no SQL failed); the lead goes through.
    if (r.status === "processed" && r.dealIds?.length && visitor)
      await attachVisitorInterests(tx, { tenantId: r.tenantId, ...visitor, dealId: r.dealIds[0] }).catch((e) => {
        if (e instanceof DomainError) return 0;
        throw e;
      });
  }
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
