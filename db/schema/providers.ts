import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

export const providerKind = pgEnum("provider_kind", ["payment", "esignature"]);

/**
 * A tenant's payment or e-signature provider receiver: `POST /api/webhooks/providers/{pathToken}`,
 * authenticated with `secret` (HMAC key or Bearer value; AES-GCM sealed at rest, shown once).
 */
export const providerSettings = pgTable(
  "provider_settings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    kind: providerKind("kind").notNull(),
    name: text("name").notNull(),
    pathToken: text("path_token").notNull(),
    /** `v1.<iv>.<tag>.<ciphertext>` (lib/messaging/secret-box.ts). */
    secret: text("secret").notNull(),
    /** The header carrying the hex HMAC-SHA256 of the raw body (`sha256=` prefix optional). */
    signatureHeader: text("signature_header").notNull().default("x-signature"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("provider_settings_tenant_idx").on(t.tenantId, t.createdAt), uniqueIndex("provider_settings_token_key").on(t.pathToken)],
);

/**
 * Every authenticated delivery to a provider receiver, stored before the answer: the raw body,
 * what it was about (`event`, `subjectKey`) and, once processed, what it did (`outcome`, `effects`).
 * `status`: `received` → `processing` → `processed` | `failed`; `malformed` ones were answered 400
 * and are kept only for inspection.
 */
export const providerNotifications = pgTable(
  "provider_notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Arrival order: notifications are applied in it (timestamps of one burst can tie). */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    providerId: parentRef("provider_id", () => providerSettings.id),
    status: text("status").notNull().default("received"),
    event: text("event"),
    subjectKey: text("subject_key"),
    body: text("body").notNull(),
    error: text("error"),
    outcome: text("outcome"),
    effects: jsonb("effects").$type<Record<string, unknown>>(),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [
    index("provider_notifications_provider_idx").on(t.tenantId, t.providerId, t.seq),
    index("provider_notifications_pending_idx").on(t.seq).where(sql`status IN ('received', 'processing')`),
  ],
);

export type ProviderSettingsRow = typeof providerSettings.$inferSelect;
export type ProviderNotificationRow = typeof providerNotifications.$inferSelect;
export type ProviderKind = (typeof providerKind.enumValues)[number];
