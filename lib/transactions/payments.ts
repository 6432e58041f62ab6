import { and, eq } from "drizzle-orm";
import { transactionPayments } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { conflict } from "../errors/domain-errors";
import { loadTransactionRow, transactionAggregate } from "./load";
import { AddPaymentSchema, serializePayment, type Payment } from "./schemas";
import { recordTransactionEvent } from "./transaction-events";

/**
 * `POST /transactions/{id}/payments`: records a slip or invoice issued at the payment provider, so
 * the provider's notifications can find it by `(method, providerId)`. Writes `transaction.updated`.
 */
export async function addPayment({ db, actor }: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<Payment> {
  const data = AddPaymentSchema.parse(body);
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const t = await loadTransactionRow(tx, actor, id, true);
    if (t.status !== "open") throw conflict(`Transaction ${id} is ${t.status}: payments are added to open transactions only.`, "transaction_final");
    const [dup] = await tx
      .select({ id: transactionPayments.id, transactionId: transactionPayments.transactionId })
      .from(transactionPayments)
      .where(
        and(eq(transactionPayments.tenantId, actor.tenantId), eq(transactionPayments.method, data.method), eq(transactionPayments.providerId, data.providerId)),
      )
      .limit(1);
    if (dup)
      throw conflict(
        `A ${data.method} with providerId '${data.providerId}' is already payment ${dup.id} of transaction ${dup.transactionId}.`,
        "payment_exists",
      );
    const before = await transactionAggregate(tx, t);
    const [p] = await tx
      .insert(transactionPayments)
      .values({ tenantId: actor.tenantId, transactionId: t.id, method: data.method, providerId: data.providerId, amount: data.amount, dueDate: data.dueDate })
      .returning();
    await recordTransactionEvent(tx, actor, "transaction.updated", await transactionAggregate(tx, t), { reason: "payment_added", paymentId: p.id }, before);
    return serializePayment(p);
  });
}
