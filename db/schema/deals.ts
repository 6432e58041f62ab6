import { sql } from "drizzle-orm";
import { index, integer, jsonb, numeric, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { marketingChannelInstances } from "./marketing-channels";
import { members } from "./members";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

export const dealType = pgEnum("deal_type", ["sale", "rental"]);
export const dealStatus = pgEnum("deal_status", ["open", "won", "lost"]);

export const deals = pgTable(
  "deals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    title: text("title").notNull(),
    dealType: dealType("deal_type").notNull(),
    stage: text("stage").notNull(),
    status: dealStatus("status").notNull().default("open"),
    currency: text("currency").notNull().default("BRL"),
    amount: numeric("amount", { precision: 14, scale: 2 }),
    assignedToId: uuid("assigned_to_id").references(() => members.id, { onDelete: "set null" }),
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    customData: jsonb("custom_data").$type<Record<string, unknown>>().notNull().default({}),
    utmSource: text("utm_source"),
    utmMedium: text("utm_medium"),
    utmCampaign: text("utm_campaign"),
    source: text("source"),
    campaign: text("campaign"),
    marketingChannelInstanceId: uuid("marketing_channel_instance_id").references(() => marketingChannelInstances.id, {
      onDelete: "set null",
    }),
    /** When the broker a lead was distributed to accepted it (`POST .../distribution/accept`); null until then. */
    distributionAcceptedAt: timestamp("distribution_accepted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("deals_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("deals_tenant_stage_idx").on(t.tenantId, t.stage),
    index("deals_tenant_assigned_idx").on(t.tenantId, t.assignedToId),
    index("deals_tenant_channel_idx").on(t.tenantId, t.marketingChannelInstanceId),
    index("deals_custom_data_gin").using("gin", t.customData),
  ],
);

/** People of a tenant (buyers, owners, tenants...), reused across deals by phone or e-mail. */
export const contacts = pgTable(
  "contacts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    name: text("name").notNull(),
    email: text("email"),
    /** E.164. */
    phone: text("phone"),
    cpf: text("cpf"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("contacts_tenant_phone_key").on(t.tenantId, t.phone).where(sql`${t.phone} is not null`),
    uniqueIndex("contacts_tenant_email_key").on(t.tenantId, sql`lower(${t.email})`).where(sql`${t.email} is not null`),
    // A returning lead is recognised by CPF last (lib/contacts/resolve-contacts.ts): without it
    // that lookup read every contact. Not unique: contacts made before CPFs were checked may share one.
    index("contacts_tenant_cpf_idx").on(t.tenantId, t.cpf).where(sql`${t.cpf} is not null`),
  ],
);

export const dealContacts = pgTable(
  "deal_contacts",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    dealId: parentRef("deal_id", () => deals.id),
    contactId: parentRef("contact_id", () => contacts.id),
    role: text("role").notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dealId, t.contactId] }), index("deal_contacts_tenant_contact_idx").on(t.tenantId, t.contactId)],
);

export type DealRow = typeof deals.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;
