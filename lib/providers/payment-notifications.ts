import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { transactionPayments, transactions, type PaymentStatus, type TransactionPaymentRow, type TransferStatus } from "../../db/schema";
import type { IntegrationActor } from "../context/actor";
import { transactionAggregate } from "../transactions/load";
import { recordTransactionEvent } from "../transactions/transaction-events";
import type { PaymentNotification } from "./payloads";
import type { Applied } from "./process";

/**
 * Provider statuses (lowercase) to what they move. Payment statuses rank `pending` < `expired` =
 * `cancelled` < `paid`, transfers `processing` < `failed` < `done`: a notification moves a payment
 * only up, so a repeat, or an older notification arriving after a newer one, changes nothing (and
 * a late payment of an expired slip still counts).
 */
const MOVES: Record<string, { status?: PaymentStatus; transfer?: TransferStatus } | null> = {
  paid: { status: "paid" },
  credited: { status: "paid" },
  cancelled: { status: "cancelled" },
  canceled: { status: "cancelled" },
  expired: { status: "expired" },
  overdue: { status: "expired" },
  transfer_processing: { transfer: "processing" },
  transfer_done: { transfer: "done" },
  transfer_success: { transfer: "done" },
  transfer_failed: { transfer: "failed" },
  // Acknowledged, nothing to move.
  created: null,
  registered: null,
  pending: null,
};
const STATUS_RANK: Record<PaymentStatus, number> = { pending: 0, expired: 1, cancelled: 1, paid: 2 };
const TRANSFER_RANK: Record<TransferStatus, number> = { processing: 0, failed: 1, done: 2 };

function validDate(v: string | null | undefined): Date | null {
  if (!v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

export async function applyPaymentNotification(tx: DbOrTx, actor: IntegrationActor, n: PaymentNotification): Promise<Applied> {
  const status = n.object.status.toLowerCase();
  if (!(status in MOVES)) return { outcome: "unsupported_status", effects: { status } };
  const [payment] = await tx
    .select()
    .from(transactionPayments)
    .where(and(eq(transactionPayments.tenantId, actor.tenantId), eq(transactionPayments.method, n.method), eq(transactionPayments.providerId, n.object.id)))
    .limit(1)
    .for("update");
  if (!payment) return { outcome: "no_matching_payment", effects: null };
  const move = MOVES[status];
  const set: Partial<TransactionPaymentRow> = {};
  if (move?.status && STATUS_RANK[move.status] > STATUS_RANK[payment.status]) {
    set.status = move.status;
    if (move.status === "paid") {
      set.paidAt = validDate(n.object.paid) ?? new Date();
      set.paidAmount = n.object.amount !== undefined ? n.object.amount.toFixed(2) : payment.amount;
    }
  }
  if (move?.transfer && (payment.transferStatus === null || TRANSFER_RANK[move.transfer] > TRANSFER_RANK[payment.transferStatus])) {
    set.transferStatus = move.transfer;
  }
  const effects = { transactionId: payment.transactionId, paymentId: payment.id };
  if (Object.keys(set).length === 0) return { outcome: "no_change", effects: { ...effects, status: payment.status, transferStatus: payment.transferStatus } };

  const [t] = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, payment.transactionId), eq(transactions.tenantId, actor.tenantId)))
    .limit(1)
    .for("update");
  const before = await transactionAggregate(tx, t);
  const [after] = await tx
    .update(transactionPayments)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(transactionPayments.id, payment.id), eq(transactionPayments.tenantId, actor.tenantId)))
    .returning();
  const [t2] = await tx
    .update(transactions)
    .set({ updatedAt: new Date() })
    .where(and(eq(transactions.id, t.id), eq(transactions.tenantId, actor.tenantId)))
    .returning();
  await recordTransactionEvent(
    tx,
    actor,
    "transaction.updated",
    await transactionAggregate(tx, t2),
    { reason: "payment_updated", paymentId: payment.id },
    before,
  );
  return {
    outcome: "payment_updated",
    effects: {
      ...effects,
      from: { status: payment.status, transferStatus: payment.transferStatus },
      to: { status: after.status, transferStatus: after.transferStatus },
      events: ["transaction.updated"],
    },
  };
}
