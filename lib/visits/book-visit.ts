import { and, desc, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx, Tx } from "../../db/client";
import { contacts, dealContacts, deals, listings, tasks, type SiteRow, type TaskRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { VisitorActor } from "../context/actor";
import { writeNewDeal } from "../deals/deals";
import type { CreateDealInput } from "../deals/schemas";
import { conflict, invalid } from "../errors/domain-errors";
import { siteChannel } from "../leads/inbound/site-lead";
import { recordEvent } from "../outbox/record-event";
import { EmailSchema } from "../schemas/email";
import { PhoneSchema } from "../schemas/phone";
import { findSiteListing, propertyNotFound } from "../sites/find-site-listing";
import { taskEvent } from "../tasks/tasks";
import { storableJson } from "../util/storable-text";
import { attachVisitorInterests } from "../visitors/attach-interests";
import { VisitorIdSchema } from "../visitors/visitor-id";
import { freeSlots, visitHosts, type FreeSlot } from "./visit-slots";

export const BookVisitInput = z
  .strictObject({
    start: z.iso.datetime({ offset: true }).meta({ description: "The `start` of one of the offered slots (any offset naming the same instant)." }),
    contact: z.strictObject({
      name: z.string().trim().min(1).max(120),
      phone: PhoneSchema,
      email: EmailSchema.optional(),
    }),
    consent: z.literal(true, { error: "must be true: the visitor agrees to be contacted about this visit (LGPD)" }),
    note: z.string().trim().max(1000).optional(),
    visitorId: VisitorIdSchema.optional(),
    locale: z.enum(["pt-BR", "en", "es"]).default("pt-BR").meta({ description: "Language of the confirmation." }),
  })
  .meta({ id: "VisitBooking" });
export type BookVisitData = z.infer<typeof BookVisitInput>;

export const BookedVisitSchema = z
  .object({
    id: z.uuid().meta({ description: "The visit's id (the broker's task)." }),
    listingId: z.uuid(),
    start: z.string(),
    end: z.string(),
    broker: z.object({ name: z.string() }).nullable(),
    confirmation: z
      .enum(["whatsapp", "email", "both", "none"])
      .meta({ description: "How the confirmation was sent: WhatsApp, e-mail with an `.ics` calendar file (when the contact gave an address), both, or none." }),
  })
  .meta({ id: "BookedVisit" });
export type BookedVisit = z.infer<typeof BookedVisitSchema>;

export const slotTaken = () => conflict("start: this slot was just taken; choose another one.", "slot_taken");

export type Booking = {
  task: TaskRow;
  dealId: string;
  data: BookVisitData;
  slot: FreeSlot;
  brokerName: string;
  timeZone: string;
  listingTitle: string;
  listingCode: string;
  /** What the listing page shows of the place (street name, neighbourhood, city, state): never the number, complement or postal code. */
  place: string;
  /** The listing page on the site, for the calendar entry. */
  url: string;
};

/**
 * `POST /api/sites/{siteId}/listings/{id}/visits`: books an offered slot. Everything is written in
 * one tenant transaction: the visitor's open deal (or a new one of the site's channel), then the
 * visit task with `booked_slot`. The task's insert is `ON CONFLICT DO NOTHING` on the partial
 * unique index over open booked slots, so of two visitors on one slot the database lets exactly one
 * in; the other's transaction rolls back (its deal too) and it gets 409 `slot_taken`.
 */
export async function bookVisit(db: DbOrTx, site: SiteRow, ref: string, input: unknown, now = Date.now()): Promise<Booking> {
  const data = BookVisitInput.parse(storableJson(input));
  const hit = await findSiteListing(db, site, ref);
  if (!hit) throw propertyNotFound();
  if (hit.isNetworkListing) throw invalid("This listing belongs to a partner agency: book its visits with them.", "visits_unavailable");
  const listingId = String(hit.document.id);
  const start = Date.parse(data.start);
  const actor: VisitorActor = { kind: "visitor", tenantId: site.tenantId, via: { site: site.id } };
  return inTenantTransaction(db, site.tenantId, async (tx) => {
    const hosts = await visitHosts(tx, site, hit);
    if (!hosts.length) throw invalid("Visits to this listing cannot be booked online.", "visits_unavailable");
    // The slot must be one the rules offer; whether it is still free is the index's to say.
    const day = new Date(start).toISOString().slice(0, 10);
    const offered = (await freeSlots(tx, site.tenantId, hosts, { from: prevDay(day), days: 3 }, now)).find((s) => s.start === start);
    if (!offered) {
      const taken = (await freeSlots(tx, site.tenantId, hosts, { from: prevDay(day), days: 3 }, now, false)).some((s) => s.start === start);
      if (taken) throw slotTaken();
      throw invalid("start: not one of the offered slots; ask visit-slots for the free ones.", "invalid_slot");
    }
    const [listing] = await tx
      .select({ title: listings.title, code: listings.listingCode, type: listings.type })
      .from(listings)
      .where(and(eq(listings.id, listingId), eq(listings.tenantId, site.tenantId)));
    const firstHost = offered.memberIds[0];
    const dealId = await visitorDeal(tx, actor, site, data, { listingId, dealType: listing.type === "rental" ? "rental" : "sale", assignedToId: firstHost });
    for (const memberId of offered.memberIds) {
      const [row] = await tx
        .insert(tasks)
        .values({
          tenantId: site.tenantId,
          title: `Visita: ${data.contact.name} · ${listing.code}`,
          type: "visit",
          dealId,
          listingId,
          assigneeId: memberId,
          dueAt: new Date(start),
          status: "open",
          notes: visitNotes(data, site, now),
          bookedSlot: true,
        })
        .onConflictDoNothing({ target: [tasks.tenantId, tasks.assigneeId, tasks.dueAt], where: sql`${tasks.bookedSlot} and ${tasks.status} = 'open'` })
        .returning();
      if (!row) continue;
      await recordEvent(tx, taskEvent(actor, "task.created", row));
      // The visitor's favourites and views so far become the deal's interests (once).
      if (data.visitorId) await attachVisitorInterests(tx, { tenantId: site.tenantId, siteId: site.id, visitorId: data.visitorId, dealId });
      const host = hosts.find((h) => h.memberId === memberId)!;
      return {
        task: row,
        dealId,
        data,
        slot: offered,
        brokerName: host.name,
        timeZone: host.rules.timezone,
        listingTitle: listing.title,
        listingCode: listing.code,
        place: publicPlace(hit.document),
        url: `https://${site.domain}/imovel/${encodeURIComponent(listing.code)}`,
      };
    }
    throw slotTaken();
  });
}

/** The place as the public document has it (its allow-list holds no street number, complement or postal code). */
function publicPlace(doc: Record<string, unknown>): string {
  return ["location_street", "location_neighborhood", "location_city", "location_state"]
    .map((k) => doc[k])
    .filter((v): v is string => typeof v === "string" && v.trim() !== "")
    .join(", ");
}

function prevDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** What the broker reads on the task: the visitor's contact, note and the consent given (LGPD: when and where). */
function visitNotes(data: BookVisitData, site: SiteRow, now: number): string {
  return [
    `${data.contact.name} · ${data.contact.phone}${data.contact.email ? ` · ${data.contact.email}` : ""}`,
    data.note ? `Nota: ${data.note}` : null,
    `Agendada pelo site ${site.domain}; consentimento de contato em ${new Date(now).toISOString()}.`,
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * The visitor's open deal (a contact of the tenant with this phone or e-mail, its most recently
 * changed open deal), as lead intake would recognise them; else a new deal of the site's channel,
 * with the broker who shows the listing as its responsible member.
 */
async function visitorDeal(
  tx: Tx,
  actor: VisitorActor,
  site: SiteRow,
  data: BookVisitData,
  o: { listingId: string; dealType: "sale" | "rental"; assignedToId: string },
): Promise<string> {
  const { phone, email } = data.contact;
  const [open] = await tx
    .select({ id: deals.id })
    .from(deals)
    .innerJoin(dealContacts, and(eq(dealContacts.dealId, deals.id), eq(dealContacts.tenantId, deals.tenantId)))
    .innerJoin(contacts, and(eq(contacts.id, dealContacts.contactId), eq(contacts.tenantId, deals.tenantId)))
    .where(
      and(
        eq(deals.tenantId, site.tenantId),
        eq(deals.status, "open"),
        or(eq(contacts.phone, phone), email ? sql`lower(${contacts.email}) = ${email.toLowerCase()}` : undefined),
      ),
    )
    .orderBy(desc(deals.updatedAt))
    .limit(1);
  if (open) return open.id;
  const channel = await siteChannel(tx, site);
  const usable = channel?.destinations.deal ? channel : null;
  const input = {
    title: `${data.contact.name} · visita pelo site`,
    dealType: o.dealType,
    currency: "BRL",
    contacts: [{ name: data.contact.name, phone, ...(email ? { email } : {}), role: o.dealType === "rental" ? "tenant" : "buyer" }],
    custom: { leadListings: [{ listingId: o.listingId }], ...(data.note ? { additionalNotes: data.note } : {}) },
    assignedToId: o.assignedToId,
    source: "site",
    ...(usable ? { marketingChannelInstanceId: usable.id } : {}),
  } as CreateDealInput;
  const deal = await writeNewDeal(tx, actor, input, { channel: usable ?? undefined });
  return deal.id;
}
