import type { DbOrTx } from "../../db/client";
import type { ContractRow } from "../../db/schema";
import { eventUserId, type Actor } from "../context/actor";
import { recordEvent } from "../outbox/record-event";
import type { Transaction } from "./schemas";

/** Why a `transaction.updated` was written, and which payment or contract moved. */
export type TransactionChange =
  | { reason: "created" | "updated" }
  | { reason: "payment_added" | "payment_updated"; paymentId: string }
  | { reason: "contract_added" | "contract_updated"; contractId: string };

/**
 * `transaction.*` (spec 2 §6 names them but gives no shape): `data.data` holds the transaction as
 * the API returns it, with `transactionId` for `id`, its payments and contracts, plus `change`
 * saying what moved; `transaction.updated` carries the previous state in `data.old`, as deal and
 * task events do.
 */
export function transactionEventData(t: Transaction, change: TransactionChange) {
  const { id, ...rest } = t;
  return { transactionId: id, ...rest, change };
}

export function recordTransactionEvent(
  tx: DbOrTx,
  actor: Actor,
  eventName: "transaction.created" | "transaction.updated",
  t: Transaction,
  change: TransactionChange,
  old: Transaction | null = null,
) {
  return recordEvent(tx, {
    tenantId: actor.tenantId,
    eventName,
    entityType: "transaction",
    entityId: t.id,
    userId: eventUserId(actor),
    data: transactionEventData(t, change),
    old: old ? (transactionEventData(old, change) as Record<string, unknown>) : null,
  });
}

/**
 * `contract.signed` with every field of spec 2 §6. `entityType`/`entityId` name what the contract
 * belongs to: its transaction, else its deal. `envelopeId` is the provider's envelope key.
 */
export function contractSignedData(c: ContractRow, occurredAt: Date) {
  return {
    contractId: c.id,
    transactionId: c.transactionId,
    dealId: c.dealId,
    listingId: c.listingId,
    entityType: c.transactionId ? "transaction" : "deal",
    entityId: c.transactionId ?? c.dealId,
    documentType: c.documentType,
    envelopeId: c.envelopeKey,
    signedDocumentId: c.signedDocumentId,
    occurredAt: occurredAt.toISOString(),
  };
}

export function recordContractSigned(tx: DbOrTx, actor: Actor, c: ContractRow, occurredAt: Date) {
  return recordEvent(tx, {
    tenantId: c.tenantId,
    eventName: "contract.signed",
    entityType: "contract",
    entityId: c.id,
    userId: eventUserId(actor),
    data: contractSignedData(c, occurredAt),
  });
}
