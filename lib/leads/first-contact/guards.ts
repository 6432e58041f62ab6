import { and, eq, inArray, isNotNull, notInArray, or } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { contacts, dealContacts, deals, listings, properties } from "../../../db/schema";
import { isOptedOut } from "../../messaging/opt-outs";
import { toE164 } from "../../schemas/phone";
import type { FirstContactReason } from "./settings";

/** Ids of what stopped a first message (never phones): spec 2 §6's `matched`. */
export type Matched = { dealIds: string[]; listingIds: string[]; contactIds: string[] };
export type GuardStop = { reason: FirstContactReason; matched: Matched };

export const nothingMatched = (): Matched => ({ dealIds: [], listingIds: [], contactIds: [] });

/**
 * Whether a new lead must not get the automatic first message, checked in order: the phone is on
 * the tenant's opt-out list (`opt_out`); the lead is the owner of the listing it asks about
 * (`listing_owner`); the person already has a won deal (`won_deal`) or an open deal with a broker
 * (`open_deal`), besides the deals this lead just made. Null: nothing stops it. Reads only; an
 * error here is the caller's `guard_error`.
 */
export async function firstContactStop(
  db: DbOrTx,
  tenantId: string,
  lead: { phone: string; listingId: string | null; dealIds: string[] },
): Promise<GuardStop | null> {
  const known = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.phone, lead.phone)));
  const contactIds = known.map((c) => c.id);

  if (await isOptedOut(db, tenantId, lead.phone)) return { reason: "opt_out", matched: { ...nothingMatched(), contactIds } };

  if (lead.listingId) {
    const [owner] = await db
      .select({ phone: properties.ownerPhone, whatsapp: properties.ownerWhatsapp })
      .from(listings)
      .innerJoin(properties, eq(properties.id, listings.propertyId))
      .where(and(eq(listings.id, lead.listingId), eq(listings.tenantId, tenantId)));
    const ownerPhones = [owner?.phone, owner?.whatsapp].filter((p): p is string => Boolean(p)).map((p) => toE164(p));
    if (ownerPhones.includes(lead.phone)) return { reason: "listing_owner", matched: { ...nothingMatched(), listingIds: [lead.listingId] } };
  }

  if (contactIds.length === 0) return null;
  const others = await db
    .select({ id: deals.id, status: deals.status, assignedToId: deals.assignedToId })
    .from(deals)
    .innerJoin(dealContacts, and(eq(dealContacts.dealId, deals.id), eq(dealContacts.tenantId, tenantId)))
    .where(
      and(
        eq(deals.tenantId, tenantId),
        inArray(dealContacts.contactId, contactIds),
        lead.dealIds.length ? notInArray(deals.id, lead.dealIds) : undefined,
        or(eq(deals.status, "won"), and(eq(deals.status, "open"), isNotNull(deals.assignedToId))),
      ),
    );
  const won = [...new Set(others.filter((d) => d.status === "won").map((d) => d.id))];
  if (won.length) return { reason: "won_deal", matched: { ...nothingMatched(), dealIds: won, contactIds } };
  const open = [...new Set(others.filter((d) => d.status === "open").map((d) => d.id))];
  if (open.length) return { reason: "open_deal", matched: { ...nothingMatched(), dealIds: open, contactIds } };
  return null;
}
