import { sql } from "drizzle-orm";
import { index, numeric, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { dealDocuments } from "./deal-documents";
import { deals, dealType } from "./deals";
import { listings } from "./listings";
import { members } from "./members";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

export const offerStatus = pgEnum("offer_status", [
  "draft",
  "sent_to_client",
  "client_confirmed",
  "client_signed",
  "countered",
  "withdrawn",
  "accepted",
  "rejected",
  "expired",
]);
export const offerSource = pgEnum("offer_source", ["crm", "portal", "public_link", "site", "agent", "system", "provider_sync"]);

/** A purchase or rental offer on a deal, moved through the state machine of `lib/offers/state-machine.ts`. */
export const offers = pgTable(
  "offers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    dealId: parentRef("deal_id", () => deals.id),
    listingId: uuid("listing_id").references(() => listings.id, { onDelete: "set null" }),
    brokerId: uuid("broker_id").references(() => members.id, { onDelete: "set null" }),
    dealType: dealType("deal_type").notNull(),
    /** Sale value or monthly rent, BRL. */
    amount: numeric("amount", { precision: 14, scale: 2 }).notNull(),
    currency: text("currency").notNull().default("BRL"),
    source: offerSource("source").notNull().default("crm"),
    status: offerStatus("status").notNull().default("draft"),
    /** The offer this one counters (set on the counter-offer). */
    counteredOfferId: uuid("countered_offer_id").references((): AnyPgColumn => offers.id, { onDelete: "set null" }),
    /** The counter-offer made against this one. */
    counterOfferId: uuid("counter_offer_id").references((): AnyPgColumn => offers.id, { onDelete: "set null" }),
    declineCode: text("decline_code"),
    /** The offer's PDF (latest sent), a deal document. */
    documentId: uuid("document_id").references(() => dealDocuments.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    notes: text("notes"),
    /** Offers imported by synchronization: the origin system's id and its last movement. */
    externalId: text("external_id"),
    lastMovementAt: timestamp("last_movement_at", { withTimezone: true }).notNull().defaultNow(),
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("offers_tenant_deal_idx").on(t.tenantId, t.dealId, t.createdAt),
    index("offers_tenant_listing_idx").on(t.tenantId, t.listingId),
    uniqueIndex("offers_tenant_external_key").on(t.tenantId, t.externalId).where(sql`${t.externalId} is not null`),
  ],
);

export type OfferRow = typeof offers.$inferSelect;
export type OfferStatus = (typeof offerStatus.enumValues)[number];
export type OfferSource = (typeof offerSource.enumValues)[number];
