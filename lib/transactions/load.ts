import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { contractDocuments, contractSigners, contracts, transactionPayments, transactions, type ContractRow, type TransactionRow } from "../../db/schema";
import type { Actor } from "../context/actor";
import { notFound } from "../errors/domain-errors";
import { serializeContract, serializePayment, serializeTransaction, type Contract, type Transaction } from "./schemas";

/**
 * Transactions follow their deal's row rules: a restricted key (a broker's view) sees the
 * transactions of deals assigned to or created by its member. Other actors (jobs, provider
 * notifications) are scoped by tenant only.
 */
export function transactionAccessWhere(actor: Actor): SQL | undefined {
  if (actor.kind !== "member" || actor.access === "broad") return undefined;
  return or(
    eq(transactions.createdById, actor.userId),
    sql`${transactions.dealId} in (select d.id from deals d where d.tenant_id = ${actor.tenantId} and (d.assigned_to_id = ${actor.userId} or d.created_by_id = ${actor.userId}))`,
  );
}

export async function loadTransactionRow(db: DbOrTx, actor: Actor, id: string, forUpdate = false): Promise<TransactionRow> {
  const q = db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, id), eq(transactions.tenantId, actor.tenantId), transactionAccessWhere(actor)))
    .limit(1);
  const [row] = forUpdate ? await q.for("update") : await q;
  if (!row) throw notFound(`Transaction ${id} not found.`);
  return row;
}

/** Contracts with their documents and signers, in creation order (documents and signers in the order given). */
export async function contractsWithParts(db: DbOrTx, tenantId: string, rows: ContractRow[]): Promise<Contract[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((c) => c.id);
  const [docs, signers] = await Promise.all([
    db
      .select()
      .from(contractDocuments)
      .where(and(eq(contractDocuments.tenantId, tenantId), inArray(contractDocuments.contractId, ids)))
      .orderBy(asc(contractDocuments.key)),
    db
      .select()
      .from(contractSigners)
      .where(and(eq(contractSigners.tenantId, tenantId), inArray(contractSigners.contractId, ids)))
      .orderBy(asc(contractSigners.key)),
  ]);
  return rows.map((c) =>
    serializeContract(
      c,
      docs.filter((d) => d.contractId === c.id),
      signers.filter((s) => s.contractId === c.id),
    ),
  );
}

/** The transaction as the API and its events show it: the row with its payments and contracts. */
export async function transactionAggregate(db: DbOrTx, row: TransactionRow): Promise<Transaction> {
  const [payments, contractRows] = await Promise.all([
    db
      .select()
      .from(transactionPayments)
      .where(and(eq(transactionPayments.tenantId, row.tenantId), eq(transactionPayments.transactionId, row.id)))
      .orderBy(asc(transactionPayments.createdAt), asc(transactionPayments.id)),
    db
      .select()
      .from(contracts)
      .where(and(eq(contracts.tenantId, row.tenantId), eq(contracts.transactionId, row.id)))
      .orderBy(asc(contracts.createdAt), asc(contracts.id)),
  ]);
  return serializeTransaction(row, payments.map(serializePayment), await contractsWithParts(db, row.tenantId, contractRows));
}

export async function transactionAggregates(db: DbOrTx, rows: TransactionRow[]): Promise<Transaction[]> {
  return Promise.all(rows.map((r) => transactionAggregate(db, r)));
}
