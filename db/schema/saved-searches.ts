import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { sites } from "./sites";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/** A search without a price ceiling, in the candidate index (above any price a filter accepts). */
export const NO_MAX_PRICE = 999_999_999_999;

/**
 * A site visitor's saved search ("Avise-me"): the catalogue filters, how to reach them and their
 * LGPD consent (time and source). `pending` until the double opt-in link is followed, `active`
 * while alerts go out, `unsubscribed` for good. The selective filters are copied into columns
 * (`''` for "any") so the matcher finds a changed listing's candidate searches with one index
 * scan; the whole filter (`filters`) is checked in code (lib/saved-searches/match-filters.ts).
 */
export const savedSearches = pgTable(
  "saved_searches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    siteId: parentRef("site_id", () => sites.id),
    status: text("status").$type<"pending" | "active" | "unsubscribed">().notNull().default("pending"),
    channel: text("channel").$type<"email" | "whatsapp">().notNull(),
    frequency: text("frequency").$type<"instant" | "daily">().notNull(),
    filters: jsonb("filters").$type<Record<string, unknown>>().notNull(),
    contactName: text("contact_name"),
    email: text("email"),
    phone: text("phone"),
    locale: text("locale").notNull().default("pt-BR"),
    /** The site's address the visitor used (`https://imobiliaria.com.br`, a preview's `…/s/{id}`): links in messages start here. */
    linkBase: text("link_base").notNull(),
    /** The browser's random visitor id (favourites), when the site sent it. */
    visitorId: text("visitor_id"),
    // Candidate columns: '' means the search does not narrow on it.
    listingType: text("listing_type").notNull().default(""),
    cityKey: text("city_key").notNull().default(""),
    propertyType: text("property_type").notNull().default(""),
    /** The neighbourhood, folded like `city_key`. */
    hoodKey: text("hood_key").notNull().default(""),
    /** At least this many bedrooms (0: any). */
    minBedrooms: integer("min_bedrooms").notNull().default(0),
    minPrice: bigint("min_price", { mode: "number" }),
    maxPrice: bigint("max_price", { mode: "number" }),
    consentAt: timestamp("consent_at", { withTimezone: true }).notNull(),
    /** Where consent was given: the site's host and page, the client address and user agent. */
    consentSource: jsonb("consent_source").$type<Record<string, string>>().notNull(),
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    /** When the last alert went out: instant alerts wait an hour after it, daily ones a day. */
    lastAlertAt: timestamp("last_alert_at", { withTimezone: true }),
    /** The inbound lead the confirmed search became (its deal is the lead's). */
    inboundLeadId: uuid("inbound_lead_id"),
    /** Attempts of the pending message that failed; reset by a success. */
    failures: bigint("failures", { mode: "number" }).notNull().default(0),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Equalities first (each `IN ('', value)`), then the price bounds and bedrooms with "any" as
    // the widest value, so every condition is checked on the index entry and only candidates that
    // pass all of them are read from the table (lib/saved-searches/match.ts).
    index("saved_searches_candidates_idx")
      .on(
        t.tenantId,
        t.listingType,
        t.cityKey,
        t.hoodKey,
        t.propertyType,
        sql`coalesce(max_price, ${sql.raw(String(NO_MAX_PRICE))})`,
        sql`coalesce(min_price, 0)`,
        t.minBedrooms,
      )
      .where(sql`status = 'active'`),
    index("saved_searches_tenant_created_idx").on(t.tenantId, t.createdAt),
    index("saved_searches_lead_idx").on(t.inboundLeadId).where(sql`inbound_lead_id IS NOT NULL`),
    index("saved_searches_unconfirmed_idx").on(t.createdAt).where(sql`status = 'pending' and confirmation_sent_at is null`),
  ],
);

/**
 * A listing matched by a saved search, at the price it had: the alert's line and the dedupe key
 * (one per search and listing; a lower price later makes it due again). `sentAt` null: waiting
 * for the search's next alert (the hourly cap or the daily digest).
 *
 * No foreign keys: a listing that matches 300 searches writes 300 rows in one statement, and the
 * three per-row key checks (each locking a saved search, the listing and the tenant) took 85 % of
 * that insert. The rows still go with their parents: triggers of migration 0048 delete a deleted
 * search's or listing's hits (a tenant's deletion cascades through both), and the matcher writes
 * only ids it has just read in the same transaction.
 */
export const savedSearchHits = pgTable(
  "saved_search_hits",
  {
    savedSearchId: uuid("saved_search_id").notNull(),
    listingId: uuid("listing_id").notNull(),
    tenantId: uuid("tenant_id").notNull(),
    price: numeric("price", { precision: 14, scale: 2 }),
    reason: text("reason").$type<"new" | "price_drop">().notNull(),
    matchedAt: timestamp("matched_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.savedSearchId, t.listingId] }),
    // The searches with hits waiting: the alert claim probes it per search and stops at its LIMIT
    // (deliver.ts), instead of grouping every waiting hit as it did by `matched_at` (147 ms a claim
    // with 279,000 hits waiting after a burst; 4–7 ms this way).
    index("saved_search_hits_due_idx").on(t.savedSearchId).where(sql`sent_at is null`),
    // The deleted listing's hits, found without scanning every hit (migration 0048's trigger).
    index("saved_search_hits_listing_idx").on(t.listingId),
  ],
);

/** How far the matcher has read a tenant's outbox (`events.seq`, in commit order within a tenant). */
export const savedSearchCursors = pgTable("saved_search_cursors", {
  tenantId: parentRef("tenant_id", () => tenants.id).primaryKey(),
  lastSeq: bigint("last_seq", { mode: "number" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type SavedSearchRow = typeof savedSearches.$inferSelect;
