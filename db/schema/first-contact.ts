import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { parentRef } from "./columns";
import { deals } from "./deals";
import { inboundLeads } from "./inbound-leads";
import { marketingChannelInstances } from "./marketing-channels";
import { tenants } from "./tenants";

/**
 * The automatic first message of each new lead whose channel has `firstContact` on: queued in the
 * lead's processing transaction, due at `sendAt`, then `sent`, `skipped` (a guard stopped it:
 * `outcome` is the reason), `failed` or `cancelled` (the setting was turned off meanwhile). One
 * per lead. Claimed with SKIP LOCKED; the send's idempotency key is the lead, so a run that died
 * mid-send cannot make a second copy.
 */
export const firstContactRequests = pgTable(
  "first_contact_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    leadId: parentRef("lead_id", () => inboundLeads.id),
    marketingChannelId: parentRef("marketing_channel_id", () => marketingChannelInstances.id),
    dealId: uuid("deal_id").references(() => deals.id, { onDelete: "set null" }),
    status: text("status").notNull().default("pending"),
    sendAt: timestamp("send_at", { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    outcome: text("outcome"),
    /** Ids of what a guard matched (no phones): `{dealIds, listingIds, contactIds}`. */
    matched: jsonb("matched").$type<Record<string, string[]>>(),
    messageId: text("message_id"),
    processedAt: timestamp("processed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("first_contact_requests_lead_key").on(t.leadId), index("first_contact_requests_due_idx").on(t.status, t.sendAt)],
);

export type FirstContactRequestRow = typeof firstContactRequests.$inferSelect;
