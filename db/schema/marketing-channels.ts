import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { listings } from "./listings";
import { members } from "./members";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/**
 * A tenant's instance of a marketing channel (its site, a portal, a lead-ads account). Leads that
 * arrive through it are attributed to it and distributed by its queue.
 */
export const marketingChannelInstances = pgTable(
  "marketing_channel_instances",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    name: text("name").notNull(),
    /** Kind of channel, e.g. `website`, `portal`, `lead_ads`, `api`. */
    kind: text("kind").notNull().default("api"),
    active: boolean("active").notNull().default(true),
    /** Round-robin position: the next lead goes to queue member number `cursor % size`. */
    distributionCursor: integer("distribution_cursor").notNull().default(0),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    /** `chnl_` + random: the unguessable path of the channel's inbound webhook; rotating it stops the old one at once. */
    pathToken: text("path_token").notNull(),
    /** Receiving secret (Bearer or HMAC key of the inbound webhook); never shown after it is set. */
    secret: text("secret"),
    /** SHA-256 of the outbound feeds' token (shown once). */
    feedTokenHash: text("feed_token_hash"),
    destinations: jsonb("destinations").$type<{ deal: boolean; listing: boolean }>().notNull().default({ deal: true, listing: false }),
    leadIntakeConfig: jsonb("lead_intake_config").$type<{ syncResponse: boolean }>().notNull().default({ syncResponse: false }),
    feedCriteria: jsonb("feed_criteria").$type<Record<string, unknown>>().notNull().default({}),
    /** The automatic first message to a new lead (lib/leads/first-contact); null: none. */
    firstContact: jsonb("first_contact").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mci_tenant_idx").on(t.tenantId, t.createdAt), uniqueIndex("mci_path_token_key").on(t.pathToken)],
);

/** The distribution queue of a channel: members in round-robin order. */
export const distributionQueueMembers = pgTable(
  "distribution_queue_members",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelInstanceId: parentRef("channel_instance_id", () => marketingChannelInstances.id),
    memberId: parentRef("member_id", () => members.id),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.channelInstanceId, t.memberId] }),
    uniqueIndex("dqm_channel_position_key").on(t.channelInstanceId, t.position),
    index("dqm_tenant_idx").on(t.tenantId),
  ],
);

export type MarketingChannelInstanceRow = typeof marketingChannelInstances.$inferSelect;

/** A listing's placement on a channel (portal): `standard`, `featured` or `super_featured`. */
export const channelListingSlots = pgTable(
  "channel_listing_slots",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelInstanceId: parentRef("channel_instance_id", () => marketingChannelInstances.id),
    listingId: parentRef("listing_id", () => listings.id),
    slot: text("slot").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channelInstanceId, t.listingId] }), index("cls_tenant_idx").on(t.tenantId)],
);
