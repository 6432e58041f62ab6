import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { contractDocuments, contractSigners, contracts, dealDocuments, transactions, type ContractRow, type ContractStatus } from "../../db/schema";
import type { IntegrationActor } from "../context/actor";
import { transactionAggregate } from "../transactions/load";
import type { Transaction } from "../transactions/schemas";
import { recordContractSigned, recordTransactionEvent } from "../transactions/transaction-events";
import { ESIGNATURE_EVENTS, type EsignatureEvent, type EsignatureNotification } from "./payloads";
import type { Applied } from "./process";

/**
 * Contract states only move up: `pending` < `uploaded` < `signing` < a final state (`signed`,
 * `refused`, `cancelled`, `expired`). The first final state wins; later notifications of any kind
 * leave a final contract as it is. Signers move `pending` → `signed` or `refused`, once.
 */
const RANK: Record<ContractStatus, number> = { pending: 0, uploaded: 1, signing: 2, signed: 3, refused: 3, cancelled: 3, expired: 3 };
const isFinal = (s: ContractStatus) => RANK[s] === 3;

function when(n: EsignatureNotification, receivedAt: Date): Date {
  const ts = n.timestamp;
  const d = typeof ts === "number" ? new Date(ts < 1e12 ? ts * 1000 : ts) : ts ? new Date(ts) : null;
  // A missing, unreadable or future provider time falls back to when we received it.
  return d && !Number.isNaN(d.getTime()) && d.getTime() <= Date.now() + 60_000 ? d : receivedAt;
}

async function findContract(tx: DbOrTx, tenantId: string, n: EsignatureNotification): Promise<ContractRow | undefined> {
  if (n.data.envelope) {
    const [c] = await tx
      .select()
      .from(contracts)
      .where(and(eq(contracts.tenantId, tenantId), eq(contracts.envelopeKey, n.data.envelope.key)))
      .limit(1)
      .for("update");
    return c;
  }
  const [c] = await tx
    .select({ c: contracts })
    .from(contracts)
    .innerJoin(contractDocuments, and(eq(contractDocuments.contractId, contracts.id), eq(contractDocuments.tenantId, tenantId)))
    .where(and(eq(contracts.tenantId, tenantId), eq(contractDocuments.key, n.data.document!.key)))
    .limit(1)
    .for("update", { of: contracts });
  return c?.c;
}

/**
 * One e-signature notification against the contract its envelope (or document) key names, in the
 * tenant's transaction with the contract row locked. `contract.signed` is written when the last
 * signer signs or the document closes, after the signed document's reference is stored in the
 * deal's documents, and only by the statement that sets `signed_event_at` from null: exactly once
 * per contract, whatever arrives twice, late or concurrently.
 */
export async function applyEsignatureNotification(tx: DbOrTx, actor: IntegrationActor, n: EsignatureNotification, receivedAt: Date): Promise<Applied> {
  if (!(ESIGNATURE_EVENTS as readonly string[]).includes(n.event)) return { outcome: "unsupported_event", effects: { event: n.event } };
  const event = n.event as EsignatureEvent;
  const contract = await findContract(tx, actor.tenantId, n);
  if (!contract) return { outcome: "no_matching_contract", effects: null };
  const at = when(n, receivedAt);
  const base = { contractId: contract.id, transactionId: contract.transactionId };
  const before = contract.transactionId ? await aggregateOf(tx, actor.tenantId, contract.transactionId) : null;
  let changed = false;
  let status = contract.status;
  const raise = (to: ContractStatus) => {
    if (RANK[to] > RANK[status]) {
      status = to;
      changed = true;
    }
  };
  const docKey = n.data.document?.key;
  const signerKey = n.data.signer?.key;

  if (event === "sign" || event === "refusal") {
    const [signer] = await tx
      .select()
      .from(contractSigners)
      .where(and(eq(contractSigners.tenantId, actor.tenantId), eq(contractSigners.contractId, contract.id), eq(contractSigners.key, signerKey!)))
      .limit(1);
    if (!signer) return { outcome: "unknown_signer", effects: { ...base, signerKey } };
    if (signer.status === "pending" && !isFinal(status)) {
      await tx
        .update(contractSigners)
        .set(event === "sign" ? { status: "signed", signedAt: at } : { status: "refused", refusedAt: at })
        .where(eq(contractSigners.id, signer.id));
      changed = true;
      raise(event === "sign" ? "signing" : "refused");
    }
  } else if (event === "add_signer") {
    if (!isFinal(status)) {
      const inserted = await tx
        .insert(contractSigners)
        .values({
          tenantId: actor.tenantId,
          contractId: contract.id,
          key: signerKey!,
          name: n.data.signer!.name ?? signerKey!,
          email: n.data.signer!.email ?? null,
          addedAt: at,
        })
        .onConflictDoNothing({ target: [contractSigners.contractId, contractSigners.key] })
        .returning({ id: contractSigners.id });
      if (inserted.length) changed = true;
      else {
        const marked = await tx
          .update(contractSigners)
          .set({ addedAt: at })
          .where(and(eq(contractSigners.contractId, contract.id), eq(contractSigners.key, signerKey!), isNull(contractSigners.addedAt)))
          .returning({ id: contractSigners.id });
        if (marked.length) changed = true;
      }
    }
  } else if (event === "upload") {
    if (docKey && !isFinal(status)) {
      const marked = await tx
        .update(contractDocuments)
        .set({ uploadedAt: at })
        .where(and(eq(contractDocuments.contractId, contract.id), eq(contractDocuments.key, docKey), isNull(contractDocuments.uploadedAt)))
        .returning({ id: contractDocuments.id });
      if (marked.length) changed = true;
    }
    raise("uploaded");
  } else if (event === "document_closed") {
    if (!isFinal(status)) {
      // Closing means every party signed: signers we had not yet seen sign are signed now.
      await tx
        .update(contractSigners)
        .set({ status: "signed", signedAt: at })
        .where(and(eq(contractSigners.contractId, contract.id), eq(contractSigners.status, "pending")));
      if (docKey) {
        await tx
          .update(contractDocuments)
          .set({ closedAt: at })
          .where(and(eq(contractDocuments.contractId, contract.id), eq(contractDocuments.key, docKey), isNull(contractDocuments.closedAt)));
      }
    }
  } else if (event === "cancel") {
    raise("cancelled");
  } else if (event === "deadline") {
    raise("expired");
  }

  // All parties signed (the last `sign`, or `document_closed`): complete the contract.
  let signed = false;
  if (!isFinal(status) && (event === "document_closed" || (event === "sign" && (await allSigned(tx, contract.id))))) {
    signed = await completeContract(tx, actor, contract, n, at);
    if (signed) {
      status = "signed";
      changed = true;
    }
  } else if (status !== contract.status) {
    await tx
      .update(contracts)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(contracts.id, contract.id), eq(contracts.tenantId, actor.tenantId)));
  } else if (changed) {
    await tx
      .update(contracts)
      .set({ updatedAt: new Date() })
      .where(and(eq(contracts.id, contract.id), eq(contracts.tenantId, actor.tenantId)));
  }

  if (!changed) return { outcome: "no_change", effects: { ...base, status: contract.status } };
  const events: string[] = signed ? ["contract.signed"] : [];
  if (contract.transactionId && before) {
    const [t] = await tx
      .update(transactions)
      .set({ updatedAt: new Date() })
      .where(and(eq(transactions.id, contract.transactionId), eq(transactions.tenantId, actor.tenantId)))
      .returning();
    await recordTransactionEvent(
      tx,
      actor,
      "transaction.updated",
      await transactionAggregate(tx, t),
      { reason: "contract_updated", contractId: contract.id },
      before,
    );
    events.push("transaction.updated");
  }
  return { outcome: signed ? "contract_signed" : "contract_updated", effects: { ...base, from: contract.status, to: status, events } };
}

async function aggregateOf(tx: DbOrTx, tenantId: string, transactionId: string): Promise<Transaction | null> {
  const [t] = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, transactionId), eq(transactions.tenantId, tenantId)))
    .limit(1)
    .for("update");
  return t ? transactionAggregate(tx, t) : null;
}

async function allSigned(tx: DbOrTx, contractId: string): Promise<boolean> {
  const [r] = await tx
    .select({ total: sql<number>`count(*)::int`, signed: sql<number>`count(*) filter (where ${contractSigners.status} = 'signed')::int` })
    .from(contractSigners)
    .where(eq(contractSigners.contractId, contractId));
  return r.total > 0 && r.total === r.signed;
}

/**
 * Stores the signed document's reference in the deal's documents, marks the contract signed and
 * writes `contract.signed`, all only if this statement is the one that sets `signed_event_at`.
 */
async function completeContract(tx: DbOrTx, actor: IntegrationActor, contract: ContractRow, n: EsignatureNotification, at: Date): Promise<boolean> {
  const [claim] = await tx
    .update(contracts)
    .set({ signedEventAt: new Date(), status: "signed", signedAt: at, updatedAt: new Date() })
    .where(and(eq(contracts.id, contract.id), eq(contracts.tenantId, actor.tenantId), isNull(contracts.signedEventAt)))
    .returning();
  if (!claim) return false;
  const payloadDoc = n.data.document;
  let name = payloadDoc?.name;
  let key = payloadDoc?.key;
  if (!key || !name) {
    const [first] = await tx
      .select()
      .from(contractDocuments)
      .where(and(eq(contractDocuments.contractId, contract.id), key ? eq(contractDocuments.key, key) : undefined))
      .limit(1);
    key ??= first?.key;
    name ??= first?.name ?? `${contract.documentType} (signed)`;
  }
  const [doc] = await tx
    .insert(dealDocuments)
    .values({
      tenantId: actor.tenantId,
      dealId: contract.dealId,
      kind: "signed_contract",
      name,
      providerKey: key ?? contract.envelopeKey,
      url: payloadDoc?.url ?? null,
    })
    .returning();
  const [row] = await tx.update(contracts).set({ signedDocumentId: doc.id }).where(eq(contracts.id, contract.id)).returning();
  await recordContractSigned(tx, actor, row, at);
  return true;
}
