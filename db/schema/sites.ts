import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

export type SiteConfiguration = {
  puck_data: Record<string, unknown>;
  siteConfiguration: {
    brand: { logoUrl: string | null; name: string | null; primaryColor: string | null };
    menu: unknown[];
    footer: Record<string, unknown>;
  };
  otherConfigs: Record<string, unknown> | null;
};
export type ListingCriteria = { propertyTypes: string[]; locations: string[]; marketType?: "primary" | "secondary" };
export type DomainStatus = "active" | "pending" | "taken";
/** Opening hours of a site's chat: outside them the widget shows the offline message (and still takes messages). */
export type ChatHours = { timeZone: string; weekly: { days: number[]; from: string; to: string }[] };
/** The web chat of a site: a web-chat messaging channel of the tenant, its greeting and offline message. */
export type SiteChat = { channelId: string; greeting: string | null; offlineMessage: string | null; hours: ChatHours | null };
export type MetaPixel = { pixelId: string; events: { viewContent: boolean; search: boolean; lead: boolean } };

/** A tenant's public website: what `/api/sites` serves and the rendered site shows. */
export const sites = pgTable(
  "sites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    name: text("name").notNull(),
    /** Host name as stored by lib/sites/domain (lower case, ASCII, no port, no trailing dot). */
    domain: text("domain").notNull(),
    /**
     * `active`: the site holds the name and is served on it (at most one site per name, across
     * tenants); `pending`: a custom domain waiting for its DNS proof; `taken`: another site proved
     * or holds the name, this claim was dropped.
     */
    domainStatus: text("domain_status").$type<DomainStatus>().notNull().default("active"),
    /** The value of the TXT record `_imobicrm.{domain}` that proves a custom domain. */
    domainToken: text("domain_token"),
    domainVerifiedAt: timestamp("domain_verified_at", { withTimezone: true }),
    active: boolean("active").notNull().default(true),
    published: boolean("published").notNull().default(false),
    configuration: jsonb("configuration").$type<SiteConfiguration>().notNull(),
    listingCriteria: jsonb("listing_criteria").$type<ListingCriteria>().notNull(),
    includeNetworkListings: boolean("include_network_listings").notNull().default(false),
    metaPixel: jsonb("meta_pixel").$type<MetaPixel | null>(),
    chat: jsonb("chat").$type<SiteChat | null>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One holder per name; pending claims of several tenants may wait side by side.
    uniqueIndex("sites_domain_held_key").on(t.domain).where(sql`domain_status = 'active'`),
    index("sites_domain_idx").on(t.domain),
    index("sites_tenant_idx").on(t.tenantId, t.createdAt),
  ],
);

export type CmsField = { id: string; label: string; type: string; required: boolean };

export const cmsCollections = pgTable(
  "cms_collections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    siteId: parentRef("site_id", () => sites.id),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    templatePageId: text("template_page_id"),
    fields: jsonb("fields").$type<CmsField[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("cms_collections_site_slug_key").on(t.siteId, t.slug), index("cms_collections_tenant_idx").on(t.tenantId, t.siteId)],
);

export const cmsEntryStatus = pgEnum("cms_entry_status", ["draft", "published"]);

export const cmsEntries = pgTable(
  "cms_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    siteId: parentRef("site_id", () => sites.id),
    collectionId: parentRef("collection_id", () => cmsCollections.id),
    slug: text("slug").notNull(),
    status: cmsEntryStatus("status").notNull().default("draft"),
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull().default({}),
    seo: jsonb("seo").$type<{ title: string | null; description: string | null } | null>(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("cms_entries_collection_slug_key").on(t.collectionId, t.slug),
    index("cms_entries_published_idx").on(t.tenantId, t.collectionId, t.publishedAt).where(sql`status = 'published'`),
  ],
);

/** Counters of the public rate limits (rate-limiter-flexible's Drizzle store), shared by every server process. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: timestamp("expire", { withTimezone: true }),
});

export type SiteRow = typeof sites.$inferSelect;
export type CmsCollectionRow = typeof cmsCollections.$inferSelect;
export type CmsEntryRow = typeof cmsEntries.$inferSelect;
