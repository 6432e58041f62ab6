import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { deals } from "./deals";
import { listings } from "./listings";
import { members } from "./members";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/**
 * A broker's to-do: a visit, a call, a follow-up. Lead intake creates visit tasks; `lib/tasks`
 * (the `/api/v1/crm/tasks` API) reads and changes them.
 */
export const tasks = pgTable(
  "tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    title: text("title").notNull(),
    /** `visit`, `call`, `follow_up`, ... */
    type: text("type").notNull(),
    dealId: uuid("deal_id").references(() => deals.id, { onDelete: "set null" }),
    listingId: uuid("listing_id").references(() => listings.id, { onDelete: "set null" }),
    assigneeId: uuid("assignee_id").references(() => members.id, { onDelete: "set null" }),
    dueAt: timestamp("due_at", { withTimezone: true }),
    status: text("status").notNull().default("open"),
    notes: text("notes"),
    /**
     * A visit a site visitor booked (lib/visits): while it is open, its (assignee, due_at) is unique
     * among booked visits, so two visitors can never hold one broker's slot (the database decides,
     * not a read-then-write). Cancelling, deleting or moving the task frees the slot.
     */
    bookedSlot: boolean("booked_slot").notNull().default(false),
    /** The member who created it through the API; null for tasks the service made (lead intake). */
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("tasks_tenant_due_idx").on(t.tenantId, t.dueAt),
    index("tasks_tenant_deal_idx").on(t.tenantId, t.dealId),
    index("tasks_tenant_assignee_idx").on(t.tenantId, t.assigneeId, t.dueAt),
    uniqueIndex("tasks_booked_slot_key").on(t.tenantId, t.assigneeId, t.dueAt).where(sql`${t.bookedSlot} and ${t.status} = 'open'`),
  ],
);

export type TaskRow = typeof tasks.$inferSelect;
