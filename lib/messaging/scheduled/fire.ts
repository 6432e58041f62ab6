import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "../../../db/client";
import { apiKeys, members, messagingScheduledMessages as S, type MessagingScheduledRow } from "../../../db/schema";
import { inTransaction } from "../../../db/transaction";
import { accessOf, type MemberActor } from "../../context/actor";
import { memberCtx } from "../../context/verb-context";
import { DomainError } from "../../errors/domain-errors";
import type { SendAck } from "../send/ack";
import { sendMessage } from "../send/send-message";
import type { ScheduleStatus } from "./present";

/** A claim older than this belongs to a worker that died: another may take the schedule over. */
export const CLAIM_LEASE_MS = 120_000;
/** Sends that threw (not a refusal: an unexpected error) are tried this many times in all. */
const MAX_ATTEMPTS = 3;
/** Reasons of the gates (spec 1 §5.5) and of a conversation that is gone: the schedule is `blocked`. */
const GATE_REASONS = new Set([
  "channel_forbidden",
  "not_found_or_inaccessible",
  "privacy_pending_approval",
  "privacy_denied",
  "opt_out",
  "outreach_unverifiable",
]);

/**
 * Claims due schedules with FOR UPDATE SKIP LOCKED: two workers never claim one schedule, and a
 * schedule whose worker died is claimed again once its lease ran out. Each claim increments
 * `attempts`, which fences the outcome: only the current claim may record it.
 */
export async function claimDue(db: Db, opts: { limit: number; now?: Date; onlyId?: string }): Promise<MessagingScheduledRow[]> {
  const now = opts.now ?? new Date();
  const stale = new Date(now.getTime() - CLAIM_LEASE_MS);
  return inTransaction(db, async (tx) => {
    const due = await tx
      .select({ id: S.id })
      .from(S)
      .where(
        and(eq(S.status, "scheduled"), lte(S.sendAt, now), or(isNull(S.claimedAt), lte(S.claimedAt, stale)), opts.onlyId ? eq(S.id, opts.onlyId) : undefined),
      )
      .orderBy(asc(S.sendAt), asc(S.id))
      .limit(opts.limit)
      .for("update", { skipLocked: true });
    if (!due.length) return [];
    return tx
      .update(S)
      .set({ claimedAt: now, attempts: sql`${S.attempts} + 1`, updatedAt: now })
      .where(
        inArray(
          S.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

/** The member the schedule's API key acts as, now: a revoked key or an inactive member no longer sends. */
async function actorOfKey(db: Db, tenantId: string, keyId: string): Promise<MemberActor | null> {
  const [r] = await db
    .select({ keyId: apiKeys.id, scope: apiKeys.scope, userId: members.id, role: members.role })
    .from(apiKeys)
    .innerJoin(members, and(eq(members.id, apiKeys.memberId), eq(members.tenantId, apiKeys.tenantId)))
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.tenantId, tenantId), isNull(apiKeys.revokedAt), eq(members.active, true)))
    .limit(1);
  return r ? { kind: "member", tenantId, userId: r.userId, role: r.role, scope: r.scope, keyId: r.keyId, access: accessOf(r.role, r.scope) } : null;
}

type Outcome = { status: Exclude<ScheduleStatus, "scheduled" | "cancelled">; reason: string | null; ack: SendAck | null };

function outcomeOf(ack: SendAck): Outcome {
  if (ack.status === "sent" || ack.status === "queued") return { status: "sent", reason: null, ack };
  const reason = ack.reason ?? ack.status;
  return { status: GATE_REASONS.has(reason) || ack.status !== "rejected" ? "blocked" : "failed", reason, ack };
}

/**
 * Fires one claimed schedule through the send verb of `POST /messaging/send`, as the member who
 * scheduled it: the gates are checked again now, and a refusal records `blocked` with the ack's
 * reason. The send's idempotency key is derived from the schedule, so a schedule claimed again
 * after a crash answers the first send's ack instead of sending twice; if the first send's outcome
 * is unknown (the worker died mid-send), it is recorded `failed` (`channel_timeout`), never resent.
 */
export async function fireClaimed(db: Db, row: MessagingScheduledRow, log: Logger): Promise<ScheduleStatus> {
  let outcome: Outcome;
  const actor = await actorOfKey(db, row.tenantId, row.apiKeyId);
  if (!actor) outcome = { status: "blocked", reason: "api_key_revoked", ack: null };
  else {
    try {
      const ack = await sendMessage(memberCtx(db, actor), {
        mode: "send",
        channelId: row.channelId,
        chatId: row.chatId,
        content: row.templateId ? { kind: "template", templateId: row.templateId } : { kind: "text", text: row.text ?? "" },
        ...(row.dealId ? { dealId: row.dealId } : {}),
        idempotencyKey: `scheduled:${row.id}`,
      });
      outcome = outcomeOf(ack);
    } catch (err) {
      if (err instanceof DomainError && err.code === "idempotency_in_progress") outcome = { status: "failed", reason: "channel_timeout", ack: null };
      else if (err instanceof DomainError && err.kind === "invalid") outcome = { status: "blocked", reason: err.code, ack: null };
      else if (row.attempts < MAX_ATTEMPTS) {
        log.warn({ err, scheduleId: row.id, attempts: row.attempts }, "scheduled send failed; it is tried again");
        await db
          .update(S)
          .set({ claimedAt: null })
          .where(and(eq(S.id, row.id), eq(S.attempts, row.attempts), eq(S.status, "scheduled")));
        return "scheduled";
      } else {
        log.error({ err, scheduleId: row.id }, "scheduled send failed for the last time");
        outcome = { status: "failed", reason: "send_error", ack: null };
      }
    }
  }
  const now = new Date();
  const [done] = await db
    .update(S)
    .set({
      status: outcome.status,
      reason: outcome.reason,
      messageId: outcome.ack?.messageId ?? null,
      ack: outcome.ack as Record<string, unknown> | null,
      firedAt: now,
      updatedAt: now,
    })
    .where(and(eq(S.id, row.id), eq(S.attempts, row.attempts), eq(S.status, "scheduled")))
    .returning({ id: S.id });
  if (!done) log.warn({ scheduleId: row.id }, "scheduled send: another worker's claim recorded the outcome");
  return outcome.status;
}

/** Claims and fires every due schedule (the job's run). */
export async function fireDue(db: Db, log: Logger, opts: { now?: Date; batch?: number } = {}) {
  const batch = opts.batch ?? 20;
  const counts: Record<string, number> = {};
  for (let round = 0; round < 50; round++) {
    const claimed = await claimDue(db, { limit: batch, now: opts.now });
    for (const row of claimed) {
      const status = await fireClaimed(db, row, log);
      counts[status] = (counts[status] ?? 0) + 1;
    }
    if (claimed.length < batch) break;
  }
  return counts;
}

/** Fires one schedule if it is due and unclaimed (the Inngest function that slept until `sendAt`). */
export async function fireOne(db: Db, scheduleId: string, log: Logger): Promise<ScheduleStatus | "not_due"> {
  const [row] = await claimDue(db, { limit: 1, onlyId: scheduleId });
  return row ? fireClaimed(db, row, log) : "not_due";
}
