import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { marketingChannelInstances } from "./marketing-channels";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

export const inboundLeadStatus = pgEnum("inbound_lead_status", ["received", "processing", "processed", "failed"]);

/**
 * A lead as a channel posted it, stored before we answer 2xx: the raw body, the headers that
 * matter and the parsed fields. Processing moves it `received` → `processing` → `processed` (or
 * `failed`) and writes its deal in the same transaction that marks it processed, so a crash at any
 * step leaves either no deal and a lead to retry, or both.
 */
export const inboundLeads = pgTable(
  "inbound_leads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => marketingChannelInstances.id),
    /** The source's own id of the lead: one lead per channel and origin id, however often it is posted. */
    originLeadId: text("origin_lead_id"),
    status: inboundLeadStatus("status").notNull().default("received"),
    destination: text("destination").notNull().default("deal"),
    rawBody: text("raw_body").notNull(),
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    lead: jsonb("lead").$type<Record<string, unknown>>().notNull(),
    dealIds: jsonb("deal_ids").$type<string[]>().notNull().default([]),
    listingId: uuid("listing_id"),
    assignedToId: uuid("assigned_to_id"),
    /** Why the lead went where it went (contact reuse, listing found, queue choice), for support. */
    decision: jsonb("decision").$type<string[]>().notNull().default([]),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("inbound_leads_origin_key").on(t.channelId, t.originLeadId).where(sql`origin_lead_id IS NOT NULL`),
    index("inbound_leads_pending_idx").on(t.status, t.receivedAt).where(sql`status IN ('received', 'processing')`),
    index("inbound_leads_channel_idx").on(t.tenantId, t.channelId, t.receivedAt),
    // A deal's saved searches (GET /api/v1/crm/deals/{id}): only the leads saved searches became.
    index("inbound_leads_saved_search_deal_idx").on(t.tenantId, sql`(deal_ids ->> 0)`).where(sql`origin_lead_id LIKE 'saved-search:%'`),
  ],
);

export type InboundLeadRow = typeof inboundLeads.$inferSelect;
