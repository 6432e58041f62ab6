import { index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { members } from "./members";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

export const apiKeyScope = pgEnum("api_key_scope", ["broad", "restricted"]);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    memberId: parentRef("member_id", () => members.id),
    name: text("name").notNull(),
    /** First characters of the key, shown in listings so people can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    hash: text("hash").notNull(),
    scope: apiKeyScope("scope").notNull().default("broad"),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("api_keys_hash_key").on(t.hash), index("api_keys_tenant_idx").on(t.tenantId, t.createdAt)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ApiKeyScope = (typeof apiKeyScope.enumValues)[number];
