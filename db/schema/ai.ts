import { bigint, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { parentRef } from "./columns";
import { tenants } from "./tenants";

/**
 * A tenant's model provider: any OpenAI-compatible chat-completions endpoint. One row per tenant;
 * no row (or `baseUrl` null) means the service-wide default (AI_BASE_URL). The key is sealed
 * (`v1.<iv>.<tag>.<ciphertext>`, lib/messaging/secret-box.ts) and never returned.
 */
export const aiSettings = pgTable("ai_settings", {
  tenantId: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  baseUrl: text("base_url"),
  apiKey: text("api_key"),
  defaultModel: text("default_model"),
  /** Input plus output tokens a calendar month (UTC) may use; null: no limit. */
  monthlyTokenBudget: integer("monthly_token_budget"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type AiSettingsRow = typeof aiSettings.$inferSelect;

/** Tokens used per tenant, UTC month (`2026-11`) and purpose (`agent`, `translation`...), added up by each call. */
export const aiTokenUsage = pgTable(
  "ai_token_usage",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    month: text("month").notNull(),
    purpose: text("purpose").notNull(),
    inputTokens: bigint("input_tokens", { mode: "number" }).notNull().default(0),
    outputTokens: bigint("output_tokens", { mode: "number" }).notNull().default(0),
    calls: integer("calls").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.month, t.purpose] })],
);
