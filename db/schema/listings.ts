import { sql } from "drizzle-orm";
import { index, jsonb, numeric, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { typologies } from "./developments";
import { members } from "./members";
import { properties } from "./properties";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

export const listingType = pgEnum("listing_type", ["sale", "rental"]);
export const listingVisibility = pgEnum("listing_visibility", ["public", "private"]);
export const priceVisibility = pgEnum("price_visibility", ["public", "private"]);

export type TranslationEntry = {
  title?: string;
  description?: string;
  source: "manual" | "ai";
  translatedAt: string;
};
export type Translations = Partial<Record<"en" | "es", TranslationEntry>>;

export const listings = pgTable(
  "listings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    propertyId: parentRef("property_id", () => properties.id),
    title: text("title").notNull(),
    description: text("description"),
    type: listingType("type").notNull(),
    price: numeric("price", { precision: 14, scale: 2 }),
    currency: text("currency").notNull().default("BRL"),
    priceVisibility: priceVisibility("price_visibility").notNull().default("public"),
    visibility: listingVisibility("visibility").notNull().default("public"),
    stage: text("stage").notNull(),
    status: text("status"),
    listingCode: text("listing_code").notNull(),
    /** The spec stores and returns this flag as the text 'true' or 'false'. */
    isPrimaryMarket: text("is_primary_market").notNull().default("false"),
    typologyId: uuid("typology_id").references(() => typologies.id, { onDelete: "set null" }),
    translations: jsonb("translations").$type<Translations>().notNull().default({}),
    typeSpecificData: jsonb("type_specific_data").$type<Record<string, unknown>>().notNull().default({}),
    acceptanceCriteria: jsonb("acceptance_criteria").$type<Record<string, unknown>>().notNull().default({}),
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    /** First time the listing reached the tenant's active stage. */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("listings_tenant_code_key").on(t.tenantId, t.listingCode),
    // Codes are looked up case-insensitively (site listing pages, lead references, shortlists):
    // without it such a lookup walks all of the tenant's listings (70–90 ms at 100,000).
    index("listings_tenant_code_upper_idx").on(t.tenantId, sql`upper(${t.listingCode})`),
    index("listings_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("listings_tenant_property_idx").on(t.tenantId, t.propertyId),
    index("listings_tenant_stage_idx").on(t.tenantId, t.stage),
  ],
);

export type ListingRow = typeof listings.$inferSelect;
