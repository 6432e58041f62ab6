import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { listings } from "./listings";
import { tenants } from "./tenants";

/** A partner network: agencies that show each other's shared listings in their searches. */
export const networks = pgTable(
  "networks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** SHA-256 of the invite code; the code itself is shown once to the creator. */
    inviteCodeHash: text("invite_code_hash").notNull(),
    createdByTenantId: uuid("created_by_tenant_id").references(() => tenants.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("networks_invite_key").on(t.inviteCodeHash)],
);

export const networkMembers = pgTable(
  "network_members",
  {
    networkId: uuid("network_id")
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.tenantId] }), index("network_members_tenant_idx").on(t.tenantId)],
);

/** Listings a member shares to a network. */
export const networkListings = pgTable(
  "network_listings",
  {
    networkId: uuid("network_id")
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.listingId] }), index("network_listings_tenant_idx").on(t.tenantId, t.listingId)],
);
