import { integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { parentRef } from "./columns";
import { members } from "./members";
import { tenants } from "./tenants";

/** One weekly range: `weekday` 0 (Sunday) to 6 (Saturday), `start`/`end` local `HH:MM` (`end` may be `24:00`). */
export type WeeklyRange = { weekday: number; start: string; end: string };
/** A local date (`YYYY-MM-DD`) off (`available: false`) or with its own range(s) instead of the weekly ones. */
export type AvailabilityException = { date: string; available: false } | { date: string; start: string; end: string };

/**
 * When a member shows listings (issue 37, visit booking): weekly local ranges in an IANA time zone,
 * dated exceptions, and the length of one visit slot. One row per member; validated by
 * `lib/visits/availability-schema.ts` on the way in, so the JSON columns hold only checked shapes.
 */
export const memberAvailability = pgTable(
  "member_availability",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    memberId: parentRef("member_id", () => members.id),
    timezone: text("timezone").notNull(),
    weekly: jsonb("weekly").$type<WeeklyRange[]>().notNull(),
    exceptions: jsonb("exceptions").$type<AvailabilityException[]>().notNull(),
    slotMinutes: integer("slot_minutes").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("member_availability_member_key").on(t.tenantId, t.memberId)],
);

export type MemberAvailabilityRow = typeof memberAvailability.$inferSelect;
