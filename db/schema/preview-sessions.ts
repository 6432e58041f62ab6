import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/**
 * Browser sessions of the brokers' share preview (`/preview/share`, issue #16): an API key typed
 * once is exchanged for a random session token held in an HttpOnly cookie. Only the token's
 * SHA-256 is stored; the key's own row decides on every request (revoked key or inactive member:
 * the session is dead at once).
 */
export const previewSessions = pgTable(
  "preview_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    apiKeyId: parentRef("api_key_id", () => apiKeys.id),
    /** SHA-256 of the cookie's token, hex. */
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("preview_sessions_token_key").on(t.tokenHash), index("preview_sessions_key_idx").on(t.apiKeyId)],
);

export type PreviewSessionRow = typeof previewSessions.$inferSelect;
