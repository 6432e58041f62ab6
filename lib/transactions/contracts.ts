import { and, asc, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { contractDocuments, contractSigners, contracts, deals, type DealRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberActor } from "../context/actor";
import type { MemberCtx } from "../context/verb-context";
import { dealAccessWhere } from "../deals/access";
import { conflict, notFound } from "../errors/domain-errors";
import { contractsWithParts, loadTransactionRow, transactionAggregate } from "./load";
import { AddContractSchema, type Contract, type ContractListSchema } from "./schemas";
import { recordTransactionEvent } from "./transaction-events";

type ContractInput = z.infer<typeof AddContractSchema>;

/** Inserts the contract with its documents and signers (the provider's keys), inside the caller's transaction. */
async function insertContract(
  tx: DbOrTx,
  actor: MemberActor,
  owner: { dealId: string; transactionId: string | null; listingId: string | null },
  data: ContractInput,
): Promise<Contract> {
  const [dup] = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .where(and(eq(contracts.tenantId, actor.tenantId), eq(contracts.envelopeKey, data.envelopeKey)))
    .limit(1);
  if (dup) throw conflict(`envelopeKey '${data.envelopeKey}' is already contract ${dup.id}.`, "contract_exists");
  const [c] = await tx
    .insert(contracts)
    .values({ tenantId: actor.tenantId, ...owner, documentType: data.documentType, envelopeKey: data.envelopeKey, createdById: actor.userId })
    .returning();
  await tx.insert(contractDocuments).values(data.documents.map((d) => ({ tenantId: actor.tenantId, contractId: c.id, key: d.key, name: d.name })));
  if (data.signers.length) {
    await tx
      .insert(contractSigners)
      .values(data.signers.map((s) => ({ tenantId: actor.tenantId, contractId: c.id, key: s.key, name: s.name, email: s.email })));
  }
  return (await contractsWithParts(tx, actor.tenantId, [c]))[0];
}

/** `POST /transactions/{id}/contracts`: an e-signature envelope of the transaction; writes `transaction.updated`. */
export async function addTransactionContract({ db, actor }: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<Contract> {
  const data = AddContractSchema.parse(body);
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const t = await loadTransactionRow(tx, actor, id, true);
    if (t.status !== "open") throw conflict(`Transaction ${id} is ${t.status}: contracts are added to open transactions only.`, "transaction_final");
    const before = await transactionAggregate(tx, t);
    const c = await insertContract(tx, actor, { dealId: t.dealId, transactionId: t.id, listingId: t.listingId }, data);
    await recordTransactionEvent(tx, actor, "transaction.updated", await transactionAggregate(tx, t), { reason: "contract_added", contractId: c.id }, before);
    return c;
  });
}

async function dealInReach(db: DbOrTx, actor: MemberActor, dealId: string): Promise<DealRow> {
  const [deal] = await db
    .select()
    .from(deals)
    .where(and(eq(deals.id, dealId), eq(deals.tenantId, actor.tenantId), dealAccessWhere(actor)))
    .limit(1);
  if (!deal) throw notFound(`Deal ${dealId} not found.`);
  return deal;
}

/** `POST /deals/{id}/contracts`: a contract of the deal itself (a brokerage or listing agreement, no transaction). */
export async function addDealContract({ db, actor }: MemberCtx, { dealId, body }: { dealId: string; body: unknown }): Promise<Contract> {
  const data = AddContractSchema.parse(body);
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const deal = await dealInReach(tx, actor, dealId);
    return insertContract(tx, actor, { dealId: deal.id, transactionId: null, listingId: null }, data);
  });
}

/** `GET /deals/{id}/contracts`: every contract of the deal, its transactions' included, oldest first. */
export async function listDealContracts({ db, actor }: MemberCtx, dealId: string): Promise<z.infer<typeof ContractListSchema>> {
  const deal = await dealInReach(db, actor, dealId);
  const rows = await db
    .select()
    .from(contracts)
    .where(and(eq(contracts.tenantId, actor.tenantId), eq(contracts.dealId, deal.id)))
    .orderBy(asc(contracts.createdAt), desc(contracts.id));
  return { items: await contractsWithParts(db, actor.tenantId, rows) };
}
