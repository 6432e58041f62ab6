import { bigint, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const tenants = pgTable(
  "tenants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    /** The tenant's settings as stored; lib/tenants parses them (`tenantSettingsOf`) into their current shape. */
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull(),
    /** Last number handed out for automatic listing codes; bumped under a row lock. */
    listingCodeSeq: integer("listing_code_seq").notNull().default(0),
    /** Bumped in every transaction that changes the tenant's search documents (cache validity). */
    searchVersion: bigint("search_version", { mode: "number" }).notNull().default(0),
    /**
     * Removals (`search_removals`) up to this search version have been pruned: an in-memory index
     * older than it cannot learn of them and loads again (lib/search/prune-removals.ts).
     */
    searchRemovalsPruned: bigint("search_removals_pruned", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("tenants_slug_key").on(t.slug)],
);

/** A tenant row as stored; `TenantRow` of lib/tenants has its settings parsed. */
export type StoredTenantRow = typeof tenants.$inferSelect;
