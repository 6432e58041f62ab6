import { sql } from "drizzle-orm";
import { boolean, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

export const memberRole = pgEnum("member_role", ["owner", "admin", "manager", "broker"]);

export const members = pgTable(
  "members",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    /** E.164, normalised on the way in. */
    phone: text("phone"),
    creci: text("creci"),
    image: text("image"),
    role: memberRole("role").notNull().default("broker"),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("members_tenant_email_key").on(t.tenantId, sql`lower(${t.email})`), index("members_tenant_phone_idx").on(t.tenantId, t.phone)],
);

export type MemberRow = typeof members.$inferSelect;
export type MemberRole = (typeof memberRole.enumValues)[number];
