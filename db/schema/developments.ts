import { sql } from "drizzle-orm";
import { boolean, date, doublePrecision, index, integer, jsonb, numeric, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/** A development (empreendimento): created in the CRM or imported, never through REST. */
export const buildings = pgTable(
  "buildings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    name: text("name").notNull(),
    description: text("description"),
    developer: text("developer"),
    publisher: text("publisher"),
    administrator: text("administrator"),
    launchDate: date("launch_date"),
    /** Expected delivery. */
    openingDate: date("opening_date"),
    numberOfTowers: integer("number_of_towers"),
    buildingPermit: text("building_permit"),
    portfolio: jsonb("portfolio").$type<string[]>().notNull().default([]),
    totalUnits: integer("total_units"),
    floors: integer("floors"),
    yearBuilt: integer("year_built"),
    amenities: jsonb("amenities").$type<Record<string, unknown>>().notNull().default({}),
    locationId: uuid("location_id"),
    /** The source system's id (channel buildings import): upserts match on it within the tenant. */
    externalId: text("external_id"),
    street: text("street"),
    number: text("number"),
    neighborhood: text("neighborhood"),
    city: text("city"),
    state: text("state"),
    postalCode: text("postal_code"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("buildings_tenant_idx").on(t.tenantId, t.name),
    uniqueIndex("buildings_tenant_external_key").on(t.tenantId, t.externalId).where(sql`external_id IS NOT NULL`),
  ],
);

export const typologies = pgTable(
  "typologies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    buildingId: parentRef("building_id", () => buildings.id),
    name: text("name").notNull(),
    code: text("code"),
    reference: text("reference"),
    description: text("description"),
    bedrooms: integer("bedrooms"),
    bathrooms: integer("bathrooms"),
    suites: integer("suites"),
    totalArea: numeric("total_area", { precision: 12, scale: 2 }),
    privateArea: numeric("private_area", { precision: 12, scale: 2 }),
    parkingSpaces: integer("parking_spaces"),
    basePrice: numeric("base_price", { precision: 14, scale: 2 }),
    pricePerSqm: numeric("price_per_sqm", { precision: 14, scale: 2 }),
    features: jsonb("features").$type<Record<string, unknown>>().notNull().default({}),
    files: jsonb("files").$type<unknown[]>().notNull().default([]),
    totalUnits: integer("total_units"),
    expectedDelivery: text("expected_delivery"),
    constructionStatus: text("construction_status"),
    order: integer("order").notNull().default(0),
    externalId: text("external_id"),
    active: boolean("active").notNull().default(true),
    showOnSite: boolean("show_on_site").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("typologies_tenant_building_idx").on(t.tenantId, t.buildingId, t.order),
    uniqueIndex("typologies_tenant_external_key").on(t.tenantId, t.externalId).where(sql`external_id IS NOT NULL`),
  ],
);

export const unitStatus = pgEnum("unit_status", ["available", "reserved", "sold", "unavailable"]);

export const units = pgTable(
  "units",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    typologyId: parentRef("typology_id", () => typologies.id),
    unitNumber: text("unit_number").notNull(),
    blockTower: text("block_tower"),
    floor: text("floor"),
    status: unitStatus("status").notNull().default("available"),
    /** Null means the typology or listing price applies. */
    price: numeric("price", { precision: 14, scale: 2 }),
    /** Property generated after a sale. */
    propertyId: uuid("property_id"),
    showOnSite: boolean("show_on_site").notNull().default(true),
    externalId: text("external_id"),
    /** Buyer and reservation details: internal only, never on a public surface. */
    reservation: jsonb("reservation").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("units_tenant_typology_idx").on(t.tenantId, t.typologyId, t.status),
    uniqueIndex("units_tenant_external_key").on(t.tenantId, t.externalId).where(sql`external_id IS NOT NULL`),
  ],
);

export type BuildingRow = typeof buildings.$inferSelect;
export type TypologyRow = typeof typologies.$inferSelect;
export type UnitRow = typeof units.$inferSelect;
