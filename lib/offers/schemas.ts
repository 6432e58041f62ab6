import { z } from "zod";
import type { OfferRow } from "../../db/schema";
import { DecimalString } from "../listings/schemas";
import { PageQuery, pageSchema } from "../schemas/paging";

export const DECLINE_CODES = ["cancelled", "price", "financing", "client_gave_up", "other"] as const;
/** Sources an offer created through the API may claim; `provider_sync` comes only through the sync endpoint. */
export const API_SOURCES = ["crm", "portal", "public_link", "site", "agent", "system"] as const;
export const OFFER_STATUSES = [
  "draft",
  "sent_to_client",
  "client_confirmed",
  "client_signed",
  "countered",
  "withdrawn",
  "accepted",
  "rejected",
  "expired",
] as const;

const IsoDateTime = z.iso.datetime({ offset: true });
const Amount = DecimalString.refine((v) => Number(v) > 0, "must be greater than zero").meta({
  description: "Sale value or monthly rent, decimal string (BRL).",
});

export const CreateOfferSchema = z
  .strictObject({
    dealId: z.uuid(),
    listingId: z.uuid().optional().meta({ description: "A listing of the tenant that the key can read (else 400, as for an unknown id)." }),
    brokerId: z.uuid().optional().meta({ description: "Active member responsible; default the deal's responsible member, else the key's." }),
    amount: Amount,
    source: z.enum(API_SOURCES).default("crm"),
    expiresAt: IsoDateTime.optional(),
    notes: z.string().max(5000).optional(),
  })
  .meta({ id: "OfferCreate" });

const DocumentRef = z
  .strictObject({ name: z.string().trim().min(1).max(200), url: z.url({ protocol: /^https?$/ }).max(2000) })
  .meta({ id: "OfferDocumentInput", description: "The offer's PDF, stored by reference in the deal's documents." });

/** Bodies of the transitions; verbs without fields take no body (an empty object is accepted). */
export const TRANSITION_BODIES = {
  send: z.strictObject({ document: DocumentRef.optional() }),
  "client-confirm": z.strictObject({ document: DocumentRef.optional() }),
  "client-sign": z.strictObject({ document: DocumentRef.optional() }),
  counter: z.strictObject({ amount: Amount, expiresAt: IsoDateTime.optional(), notes: z.string().max(5000).optional() }),
  withdraw: z.strictObject({ declineCode: z.enum(DECLINE_CODES) }),
  reject: z.strictObject({ declineCode: z.enum(DECLINE_CODES) }),
  accept: z.strictObject({
    openTransaction: z.boolean().default(true),
    transactionNotes: z.string().max(5000).optional(),
  }),
  expire: z.strictObject({}),
} as const;

export const OfferTransitionBodyDoc = z
  .strictObject({
    document: DocumentRef.optional().meta({ description: "send, client-confirm, client-sign: the offer's PDF." }),
    amount: Amount.optional().meta({ description: "counter (required): the counter-offer's amount." }),
    expiresAt: IsoDateTime.optional().meta({ description: "counter: the counter-offer's expiry." }),
    notes: z.string().max(5000).optional().meta({ description: "counter: notes of the counter-offer." }),
    declineCode: z.enum(DECLINE_CODES).optional().meta({ description: "reject and withdraw (required)." }),
    openTransaction: z
      .boolean()
      .optional()
      .meta({ description: "accept: open the deal's transaction from this offer (default true); `offer.accepted` then carries its `transactionId`." }),
    transactionNotes: z.string().max(5000).optional().meta({ description: "accept: notes of the transaction it opens." }),
  })
  .meta({ id: "OfferTransitionBody" });

export const ListOffersQuery = z
  .strictObject({ ...PageQuery, dealId: z.uuid().optional(), listingId: z.uuid().optional(), status: z.enum(OFFER_STATUSES).optional() })
  .meta({ id: "ListOffersQuery" });
export type ListOffersQueryInput = z.infer<typeof ListOffersQuery>;

export const SyncOfferSchema = z
  .strictObject({
    externalId: z.string().trim().min(1).max(200).meta({ description: "The origin system's offer id: the same id updates the same offer." }),
    dealId: z.uuid(),
    listingId: z.uuid().optional(),
    brokerId: z.uuid().optional(),
    amount: Amount,
    status: z.enum(["open", "accepted", "rejected", "cancelled"]).meta({ description: "The offer's status at the origin." }),
    declineCode: z.enum(DECLINE_CODES).optional().meta({ description: "With `rejected` (default `other`); `cancelled` always gives `cancelled`." }),
    movedAt: IsoDateTime.meta({ description: "When the offer last moved at the origin." }),
  })
  .meta({ id: "OfferSync" });

export const OfferSchema = z
  .object({
    id: z.uuid(),
    dealId: z.uuid(),
    listingId: z.uuid().nullable(),
    brokerId: z.uuid().nullable(),
    dealType: z.enum(["sale", "rental"]),
    amount: z.string().meta({ description: "Decimal string with two places." }),
    currency: z.literal("BRL"),
    source: z.string(),
    status: z.enum(OFFER_STATUSES),
    counteredOfferId: z.uuid().nullable().meta({ description: "On a counter-offer: the offer it answers." }),
    counterOfferId: z.uuid().nullable().meta({ description: "On a countered offer: the counter-offer." }),
    declineCode: z.enum(DECLINE_CODES).nullable(),
    documentId: z.uuid().nullable().meta({ description: "The offer's latest PDF in the deal's documents." }),
    expiresAt: z.string().nullable(),
    notes: z.string().nullable(),
    externalId: z.string().nullable(),
    lastMovementAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Offer" });
export type Offer = z.infer<typeof OfferSchema>;

/** `listOffers`: one page of offers. */
export const OfferPageSchema = pageSchema(OfferSchema, "OfferPage");

/** The answer of `syncOffer`. */
export const OfferSyncResultSchema = z
  .object({
    offer: OfferSchema,
    created: z.boolean().meta({ description: "True when this externalId arrived for the first time (status 201)." }),
    event: z.string().nullable().meta({ description: "The offer event this report wrote, or null (no movement, stale, or older than 7 days)." }),
  })
  .meta({ id: "OfferSyncResult" });

export function serializeOffer(o: OfferRow): Offer {
  return {
    id: o.id,
    dealId: o.dealId,
    listingId: o.listingId,
    brokerId: o.brokerId,
    dealType: o.dealType,
    amount: o.amount,
    currency: "BRL",
    source: o.source,
    status: o.status,
    counteredOfferId: o.counteredOfferId,
    counterOfferId: o.counterOfferId,
    declineCode: o.declineCode as Offer["declineCode"],
    documentId: o.documentId,
    expiresAt: o.expiresAt?.toISOString() ?? null,
    notes: o.notes,
    externalId: o.externalId,
    lastMovementAt: o.lastMovementAt.toISOString(),
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}
