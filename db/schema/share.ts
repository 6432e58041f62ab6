import { sql } from "drizzle-orm";
import { boolean, date, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { deals } from "./deals";
import { listings } from "./listings";
import { members } from "./members";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/** A broker's selection of listings for a client, in the order the client should see them. */
export const shortlists = pgTable(
  "shortlists",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    name: text("name").notNull(),
    description: text("description"),
    /** Ordered; every id is a listing of the same tenant (checked when written). */
    listingIds: uuid("listing_ids").array().notNull().default(sql`'{}'::uuid[]`),
    dealId: uuid("deal_id").references(() => deals.id, { onDelete: "set null" }),
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("shortlists_tenant_created_idx").on(t.tenantId, t.createdAt, t.id)],
);

export type MeetingPoint = { name: string; address: string | null; latitude: number | null; longitude: number | null };
export type ItineraryStop = { listingId: string; time: string | null; notes: string | null };
export type RouteLeg = { fromListingId: string | null; toListingId: string; distanceMeters: number | null };
export type RouteCache = { order: string[]; legs: RouteLeg[]; totalDistanceMeters: number | null; computedAt: string };

/** A day of visits: a meeting point and ordered stops, with the computed route kept beside them. */
export const visitItineraries = pgTable(
  "visit_itineraries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    name: text("name").notNull(),
    scheduledDate: date("scheduled_date", { mode: "string" }).notNull(),
    meetingPoint: jsonb("meeting_point").$type<MeetingPoint | null>(),
    stops: jsonb("stops").$type<ItineraryStop[]>().notNull().default([]),
    routeCache: jsonb("route_cache").$type<RouteCache>().notNull(),
    dealId: uuid("deal_id").references(() => deals.id, { onDelete: "set null" }),
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("visit_itineraries_tenant_created_idx").on(t.tenantId, t.createdAt, t.id)],
);

export const shareEntityType = pgEnum("share_entity_type", ["listing", "shortlist", "seller_report", "visit_itinerary", "pricing_tool"]);

/**
 * A public token that opens one entity. The token is stored as issued (the broker copies the link
 * again later); `passwordHash` is scrypt and never leaves the service. `coordinateSeed` is a
 * server-side random value that fixes the approximate-coordinate offset of the link: derived from
 * the token instead, anyone holding the link could undo the offset.
 */
export const shareLinks = pgTable(
  "share_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    token: text("token").notNull(),
    entityType: shareEntityType("entity_type").notNull(),
    /** The listing, shortlist, itinerary, or (pricing tool) the tenant itself. */
    entityId: uuid("entity_id").notNull(),
    dealId: uuid("deal_id").references(() => deals.id, { onDelete: "set null" }),
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    passwordHash: text("password_hash"),
    active: boolean("active").notNull().default(true),
    coordinateSeed: text("coordinate_seed").notNull(),
    viewCount: integer("view_count").notNull().default(0),
    lastViewedAt: timestamp("last_viewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("share_links_token_key").on(t.token),
    index("share_links_tenant_entity_idx").on(t.tenantId, t.entityType, t.entityId),
    index("share_links_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    // One live pricing tool per tenant: rotation deactivates the old link in the same transaction.
    uniqueIndex("share_links_pricing_tool_key").on(t.tenantId).where(sql`entity_type = 'pricing_tool' and active`),
  ],
);

/** One row per successful open of a link: for view notifications, statistics and engagement. */
export const shareLinkViews = pgTable(
  "share_link_views",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    shareLinkId: parentRef("share_link_id", () => shareLinks.id),
    viewedAt: timestamp("viewed_at", { withTimezone: true }).notNull().defaultNow(),
    /** HMAC of the client address keyed per link: visits can be told apart, the address is not kept. */
    clientHash: text("client_hash").notNull(),
    userAgent: text("user_agent"),
    referrer: text("referrer"),
  },
  (t) => [index("share_link_views_link_idx").on(t.tenantId, t.shareLinkId, t.viewedAt)],
);

/**
 * Opens of a listing's detail on the tenant's sites, counted per day (one upsert per open, in the
 * background): the site half of a seller report's `views`. Served answers are cacheable for a
 * minute, so this counts detail documents the service served, not every page view behind a CDN.
 */
export const listingSiteViews = pgTable(
  "listing_site_views",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    listingId: parentRef("listing_id", () => listings.id),
    day: date("day").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.day] }), index("listing_site_views_tenant_idx").on(t.tenantId, t.listingId)],
);

export type ShortlistRow = typeof shortlists.$inferSelect;
export type VisitItineraryRow = typeof visitItineraries.$inferSelect;
export type ShareLinkRow = typeof shareLinks.$inferSelect;
export type ShareLinkViewRow = typeof shareLinkViews.$inferSelect;
