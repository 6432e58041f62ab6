import { boolean, doublePrecision, index, integer, jsonb, numeric, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { buildings } from "./developments";
import { members } from "./members";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/**
 * The physical property. Owner contact fields and internal notes live here and must never be
 * read by a public serializer: public documents are built from allow-lists.
 */
export const properties = pgTable(
  "properties",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    title: text("title"),
    /** Id of one of the tenant's property types (`settings.propertyTypes`). */
    type: text("type").notNull(),
    bedrooms: integer("bedrooms"),
    bathrooms: integer("bathrooms"),
    suites: integer("suites"),
    parkingSpaces: integer("parking_spaces"),
    totalArea: numeric("total_area", { precision: 12, scale: 2 }),
    usableArea: numeric("usable_area", { precision: 12, scale: 2 }),
    privateArea: numeric("private_area", { precision: 12, scale: 2 }),
    features: jsonb("features").$type<string[]>().notNull().default([]),
    condominiumFee: numeric("condominium_fee", { precision: 14, scale: 2 }),
    propertyTax: numeric("property_tax", { precision: 14, scale: 2 }),
    street: text("street"),
    number: text("number"),
    complement: text("complement"),
    neighborhood: text("neighborhood"),
    city: text("city"),
    state: text("state"),
    postalCode: text("postal_code"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    buildingId: uuid("building_id").references(() => buildings.id, { onDelete: "set null" }),
    assignedToId: uuid("assigned_to_id").references(() => members.id, { onDelete: "set null" }),
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    ownerName: text("owner_name"),
    ownerEmail: text("owner_email"),
    ownerPhone: text("owner_phone"),
    ownerWhatsapp: text("owner_whatsapp"),
    ownerCpf: text("owner_cpf"),
    internalNotes: text("internal_notes"),
    videoUrl: text("video_url"),
    virtualTourUrl: text("virtual_tour_url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("properties_tenant_created_idx").on(t.tenantId, t.createdAt), index("properties_tenant_assigned_idx").on(t.tenantId, t.assignedToId)],
);

export const mediaType = pgEnum("media_type", ["photo", "floor_plan"]);

export const media = pgTable(
  "media",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    propertyId: parentRef("property_id", () => properties.id),
    type: mediaType("type").notNull().default("photo"),
    url: text("url").notNull(),
    alt: text("alt"),
    category: text("category"),
    order: integer("order").notNull().default(0),
    isPrimary: boolean("is_primary").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("media_tenant_property_idx").on(t.tenantId, t.propertyId, t.order)],
);

export type PropertyRow = typeof properties.$inferSelect;
export type MediaRow = typeof media.$inferSelect;
