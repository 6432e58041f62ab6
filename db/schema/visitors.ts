import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { parentRef } from "./columns";
import { deals } from "./deals";
import { listings } from "./listings";
import { sites } from "./sites";
import { tenants } from "./tenants";

/** What a visitor did with a listing: kept a favourite, opened its page (once identified), compared it. */
export const INTEREST_KINDS = ["favourite", "viewed", "compared"] as const;
export type InterestKind = (typeof INTEREST_KINDS)[number];

/**
 * An anonymous visitor of a site, known only by the random id its browser keeps (`visitorId`).
 * `dealId` is the deal the visitor became when they identified (lead form, chat, saved search,
 * booking): later favourites synced by the same browser are added to that deal.
 */
export const siteVisitors = pgTable(
  "site_visitors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    siteId: parentRef("site_id", () => sites.id),
    visitorId: uuid("visitor_id").notNull(),
    dealId: uuid("deal_id").references(() => deals.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("site_visitors_site_visitor_key").on(t.siteId, t.visitorId), index("site_visitors_tenant_deal_idx").on(t.tenantId, t.dealId)],
);

/** A visitor's listings by kind: the favourites the browser last synced, and what it compared or viewed. */
export const visitorListings = pgTable(
  "visitor_listings",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    visitorRowId: parentRef("visitor_row_id", () => siteVisitors.id),
    listingId: parentRef("listing_id", () => listings.id),
    kind: text("kind").$type<InterestKind>().notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("visitor_listings_key").on(t.visitorRowId, t.listingId, t.kind), index("visitor_listings_tenant_idx").on(t.tenantId, t.listingId)],
);

/**
 * A deal's interests: listings its person favoured, viewed or compared on the site. Copied from the
 * visitor when they identify (and on each later sync), so removing a heart later does not erase
 * what the broker was told; one row per (deal, listing, kind), `at` the first time.
 */
export const dealInterests = pgTable(
  "deal_interests",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    dealId: parentRef("deal_id", () => deals.id),
    listingId: parentRef("listing_id", () => listings.id),
    kind: text("kind").$type<InterestKind>().notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("deal_interests_key").on(t.dealId, t.listingId, t.kind), index("deal_interests_tenant_idx").on(t.tenantId, t.dealId)],
);

export type SiteVisitorRow = typeof siteVisitors.$inferSelect;
