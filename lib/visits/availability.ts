import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { memberAvailability, members, type MemberAvailabilityRow } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { can } from "../context/permissions";
import { forbidden, notFound } from "../errors/domain-errors";
import { AvailabilityInput, type AvailabilitySchema, DEFAULT_TIMEZONE } from "./availability-schema";

type AvailabilityOut = z.infer<typeof AvailabilitySchema>;

/** Owners and admins (a broad key) manage anyone's availability; every other member only its own. */
async function assertMayManage({ db, actor }: MemberCtx, memberId: string): Promise<void> {
  const [m] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.tenantId, actor.tenantId)))
    .limit(1);
  if (!m) throw notFound(`Member ${memberId} not found.`);
  if (memberId !== actor.userId && !can(actor, "tenant.admin")) {
    throw forbidden("Only the member itself, or a broad key of an owner or admin, manages a member's availability.");
  }
}

export function serializeAvailability(memberId: string, row: MemberAvailabilityRow | undefined): AvailabilityOut {
  if (!row) return { memberId, timezone: DEFAULT_TIMEZONE, weekly: [], exceptions: [], slotMinutes: 60, updatedAt: null };
  return {
    memberId,
    timezone: row.timezone,
    weekly: row.weekly,
    exceptions: row.exceptions,
    slotMinutes: row.slotMinutes,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getAvailability(ctx: MemberCtx, memberId: string): Promise<AvailabilityOut> {
  await assertMayManage(ctx, memberId);
  const [row] = await ctx.db
    .select()
    .from(memberAvailability)
    .where(and(eq(memberAvailability.tenantId, ctx.actor.tenantId), eq(memberAvailability.memberId, memberId)))
    .limit(1);
  return serializeAvailability(memberId, row);
}

/** Replaces the member's availability as a whole (PUT). Booked visits stay: they are tasks, changed there. */
export async function putAvailability(ctx: MemberCtx, { memberId, body }: { memberId: string; body: unknown }): Promise<AvailabilityOut> {
  const data = AvailabilityInput.parse(body);
  await assertMayManage(ctx, memberId);
  // Sorted once here, so slot computation and readers see ranges in day order.
  const weekly = [...data.weekly].sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start));
  const exceptions = [...data.exceptions].sort((a, b) => a.date.localeCompare(b.date) || ("start" in a && "start" in b ? a.start.localeCompare(b.start) : 0));
  const values = { timezone: data.timezone, weekly, exceptions, slotMinutes: data.slotMinutes, updatedAt: new Date() };
  const [row] = await ctx.db
    .insert(memberAvailability)
    .values({ tenantId: ctx.actor.tenantId, memberId, ...values })
    .onConflictDoUpdate({ target: [memberAvailability.tenantId, memberAvailability.memberId], set: values })
    .returning();
  return serializeAvailability(memberId, row);
}
