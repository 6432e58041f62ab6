import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { listings } from "./listings";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

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
    networkId: parentRef("network_id", () => networks.id),
    tenantId: parentRef("tenant_id", () => tenants.id),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.tenantId] }), index("network_members_tenant_idx").on(t.tenantId)],
);

/** Listings a member shares to a network. */
export const networkListings = pgTable(
  "network_listings",
  {
    networkId: parentRef("network_id", () => networks.id),
    listingId: parentRef("listing_id", () => listings.id),
    tenantId: parentRef("tenant_id", () => tenants.id),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.listingId] }), index("network_listings_tenant_idx").on(t.tenantId, t.listingId)],
);
