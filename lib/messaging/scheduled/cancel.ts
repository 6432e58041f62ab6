import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { messagingChannels as C, messagingChatPrivacy as P, messagingScheduledMessages as S, type MessagingScheduledRow } from "../../../db/schema";
import { afterCommit, inTenantTransaction } from "../../../db/transaction";
import type { MemberCtx } from "../../context/verb-context";
import { conflict, forbidden, notFound } from "../../errors/domain-errors";
import { sendJobEvent } from "../../jobs/dispatch";
import { scheduleCancelled } from "./events";
import { presentScheduled, type ScheduledMessage } from "./present";
import { channelJoin, chatNotHidden, mayChange, privacyJoin } from "./visibility";

export const CancelScheduledSchema = z.strictObject({ scheduleId: z.uuid().transform((v) => v.toLowerCase()) });

/** The schedule when the member may see it (its channel's grant, chat not hidden), else null: one answer for unknown and foreign. */
export async function visibleSchedule(ctx: MemberCtx, id: string): Promise<MessagingScheduledRow | null> {
  const [r] = await ctx.db
    .select({ s: S })
    .from(S)
    .innerJoin(C, channelJoin(ctx.actor))
    .leftJoin(P, privacyJoin)
    .where(and(eq(S.id, id), eq(S.tenantId, ctx.tenantId), chatNotHidden))
    .limit(1);
  return r?.s ?? null;
}

/**
 * `cancel_scheduled_message`: only a schedule nobody has claimed yet. The update and a worker's
 * claim both lock the row, so exactly one wins: cancelled (the worker never sees it due), or
 * claimed (the cancel answers `schedule_sending`; the send goes ahead). Cancelling twice answers
 * the first cancellation with `idempotent: true`.
 */
export async function cancelScheduled(ctx: MemberCtx, input: unknown): Promise<{ schedule: ScheduledMessage; idempotent: boolean }> {
  const { scheduleId } = CancelScheduledSchema.parse(input);
  const row = await visibleSchedule(ctx, scheduleId);
  if (!row) throw notFound(`No scheduled message ${scheduleId} that this key may see.`);
  if (!mayChange(ctx.actor, row.createdById))
    throw forbidden("Only the member who scheduled this message (or an owner, admin or manager with a broad key) may cancel it.", "schedule_forbidden");
  const cancelled = await inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const now = new Date();
    const [r] = await tx
      .update(S)
      .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
      .where(and(eq(S.id, scheduleId), eq(S.tenantId, ctx.tenantId), eq(S.status, "scheduled"), isNull(S.claimedAt)))
      .returning();
    if (r)
      afterCommit(
        tx,
        `scheduled:cancelled:${r.id}`,
        () => null,
        () => sendJobEvent(scheduleCancelled, { tenantId: r.tenantId, scheduleId: r.id }),
      );
    return r ?? null;
  });
  if (cancelled) return { schedule: presentScheduled(cancelled), idempotent: false };
  const [now] = await ctx.db
    .select()
    .from(S)
    .where(and(eq(S.id, scheduleId), eq(S.tenantId, ctx.tenantId)))
    .limit(1);
  if (now?.status === "cancelled") return { schedule: presentScheduled(now), idempotent: true };
  if (now?.status === "scheduled") throw conflict("The message is being sent right now; it can no longer be cancelled.", "schedule_sending");
  throw conflict(`The scheduled message is already ${now?.status ?? "gone"}; only a \`scheduled\` one can be cancelled.`, "schedule_not_cancellable");
}
