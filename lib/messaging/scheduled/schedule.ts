import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { deals, messagingScheduledMessages as S, type MessagingScheduledRow } from "../../../db/schema";
import { afterCommit, inTenantTransaction } from "../../../db/transaction";
import type { MemberCtx } from "../../context/verb-context";
import { dealAccessWhere } from "../../deals/access";
import { conflict, invalid } from "../../errors/domain-errors";
import { sendJobEvent } from "../../jobs/dispatch";
import { ChatIdSchema } from "../chat-id";
import { adapterFor } from "../providers/adapter-for";
import { ackPolicy, type SendAck } from "../send/ack";
import { evaluateSendGates } from "../send/gates";
import { prepareContent } from "../send/render";
import { IdempotencyKeySchema } from "../send/send-message";
import { messageScheduled } from "./events";
import { presentScheduled, type ScheduledMessage } from "./present";

/** How far ahead a message may be scheduled. */
export const MAX_SCHEDULE_DAYS = 30;
/** A `sendAt` this far in the past (clock skew, a slow agent) still counts as "now". */
const PAST_TOLERANCE_MS = 60_000;

const Uuid = z.uuid().transform((v) => v.toLowerCase());

export const ScheduleMessageSchema = z
  .strictObject({
    channelId: Uuid,
    chatId: ChatIdSchema,
    text: z
      .string()
      .min(1)
      .max(4096)
      .refine((v) => v.trim().length > 0, "must not be blank")
      .optional(),
    templateId: Uuid.optional(),
    dealId: Uuid.optional(),
    sendAt: z.iso.datetime({ offset: true }),
    idempotencyKey: IdempotencyKeySchema,
  })
  .superRefine((v, c) => {
    if ((v.text === undefined) === (v.templateId === undefined))
      c.addIssue({ code: "custom", path: ["text"], message: "send exactly one of `text` or `templateId`" });
  });

export type ScheduleResult = { ok: true; ack: SendAck; schedule: ScheduledMessage } | { ok: false; ack: SendAck };

const sameRequest = (row: MessagingScheduledRow, v: z.output<typeof ScheduleMessageSchema>, sendAt: Date) =>
  row.channelId === v.channelId &&
  row.chatId === v.chatId &&
  row.text === (v.text ?? null) &&
  row.templateId === (v.templateId ?? null) &&
  row.dealId === (v.dealId ?? null) &&
  row.sendAt.getTime() === sendAt.getTime();

/**
 * `schedule_message`: stores an outbound message to send at `sendAt` (at most 30 days ahead). The
 * outbound gates of the send verb run now (so an agent hears of a refusal at once, as the REST ack
 * would say it) and again when it fires. `idempotencyKey` is per API key, as on REST sends: a
 * retry answers the first schedule with `idempotent: true`; the same key for another message is a 409.
 * The answer is the send ack with `status: queued` plus the schedule.
 */
export async function scheduleMessage(ctx: MemberCtx, input: unknown, now = new Date()): Promise<ScheduleResult> {
  const v = ScheduleMessageSchema.parse(input);
  const sendAt = new Date(v.sendAt);
  const ack = (status: SendAck["status"], reason: SendAck["reason"], handle: string | null, idempotent = false): SendAck => ({
    policy: ackPolicy("proactive", true),
    status,
    messageId: null,
    handle,
    reason,
    idempotent,
  });
  const replay = (row: MessagingScheduledRow): ScheduleResult => {
    if (!sameRequest(row, v, sendAt)) {
      throw conflict(
        "argument `idempotencyKey`: this key was already used for a different scheduled message; use a new key for a new message.",
        "idempotency_key_reused",
      );
    }
    const schedule = presentScheduled(row);
    return { ok: true, ack: ack("queued", null, schedule.handle, true), schedule };
  };
  const existing = await findByKey(ctx, v.idempotencyKey);
  if (existing) return replay(existing);

  if (sendAt.getTime() < now.getTime() - PAST_TOLERANCE_MS) throw invalid("argument `sendAt`: is in the past; give a future time (ISO 8601 with offset).");
  if (sendAt.getTime() > now.getTime() + MAX_SCHEDULE_DAYS * 86_400_000) throw invalid(`argument \`sendAt\`: is more than ${MAX_SCHEDULE_DAYS} days ahead.`);
  if (v.dealId) {
    const [d] = await ctx.db
      .select({ id: deals.id })
      .from(deals)
      .where(and(eq(deals.id, v.dealId), eq(deals.tenantId, ctx.tenantId), dealAccessWhere(ctx.actor)))
      .limit(1);
    if (!d) throw invalid(`argument \`dealId\`: no deal ${v.dealId} that this key may use.`);
  }

  const gates = await evaluateSendGates(ctx, { channelId: v.channelId, chatId: v.chatId, mode: "send" });
  if (!gates.ok) return { ok: false, ack: ack(gates.status, gates.reason, gates.handle) };
  const content = v.text !== undefined ? { kind: "text" as const, text: v.text } : { kind: "template" as const, templateId: v.templateId! };
  const prepared = await prepareContent(ctx, { id: gates.channel.id, supportsTemplates: adapterFor(gates.channel).supportsTemplates }, content, v.dealId);
  if (!prepared.ok) return { ok: false, ack: ack("rejected", prepared.reason, gates.handle) };

  const row = await inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const [r] = await tx
      .insert(S)
      .values({
        tenantId: ctx.tenantId,
        channelId: gates.channel.id,
        chatId: gates.chatId,
        text: v.text ?? null,
        templateId: v.templateId ?? null,
        dealId: v.dealId ?? null,
        sendAt,
        createdById: ctx.actor.userId,
        apiKeyId: ctx.actor.keyId,
        idempotencyKey: v.idempotencyKey,
      })
      .onConflictDoNothing()
      .returning();
    if (r)
      afterCommit(
        tx,
        `scheduled:created:${r.id}`,
        () => null,
        () => sendJobEvent(messageScheduled, { tenantId: r.tenantId, scheduleId: r.id, sendAt: r.sendAt.toISOString() }),
      );
    return r ?? null;
  });
  // Two calls with one key at once: the unique index let one insert; the other answers it.
  if (!row) return replay((await findByKey(ctx, v.idempotencyKey))!);
  const schedule = presentScheduled(row);
  return { ok: true, ack: ack("queued", null, schedule.handle), schedule };
}

async function findByKey(ctx: MemberCtx, key: string): Promise<MessagingScheduledRow | null> {
  const [r] = await ctx.db
    .select()
    .from(S)
    .where(and(eq(S.tenantId, ctx.tenantId), eq(S.apiKeyId, ctx.actor.keyId), eq(S.idempotencyKey, key)))
    .limit(1);
  return r ?? null;
}
