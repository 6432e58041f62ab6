import { and, asc, count, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { contacts, dealContacts, deals, offers, transactions, type DealRow, type OfferRow, type TransactionParty, type TransactionRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { Actor } from "../context/actor";
import type { MemberCtx } from "../context/verb-context";
import { dealAccessWhere } from "../deals/access";
import { conflict, invalid } from "../errors/domain-errors";
import { assertListingReadable } from "../listings/readable-listings";
import { loadTransactionRow, transactionAccessWhere, transactionAggregate, transactionAggregates } from "./load";
import { CreateTransactionSchema, UpdateTransactionSchema, type ListTransactionsQueryInput, type Transaction, type TransactionPageSchema } from "./schemas";
import { recordTransactionEvent } from "./transaction-events";

export async function listTransactions({ db, actor }: MemberCtx, q: ListTransactionsQueryInput): Promise<z.infer<typeof TransactionPageSchema>> {
  const where = and(
    eq(transactions.tenantId, actor.tenantId),
    transactionAccessWhere(actor),
    q.dealId ? eq(transactions.dealId, q.dealId) : undefined,
    q.status ? eq(transactions.status, q.status) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(transactions)
      .where(where)
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(transactions).where(where),
  ]);
  return { items: await transactionAggregates(db, rows), total, page: q.page, pageSize: q.pageSize };
}

export async function getTransaction({ db, actor }: MemberCtx, id: string): Promise<Transaction> {
  return transactionAggregate(db, await loadTransactionRow(db, actor, id));
}

type Party = { role: string; name: string; email?: string | null; taxId?: string | null; contactId?: string | null };
export type OpenTransactionArgs = {
  deal: DealRow;
  offer?: OfferRow;
  listingId?: string | null;
  amount: string;
  currency: string;
  parties?: Party[];
  notes?: string | null;
};

/**
 * Opens a transaction inside the caller's tenant transaction and writes `transaction.created`.
 * Shared by `POST /transactions` and the offer's `accept`. At most one transaction per offer: the
 * tenant lock serializes writers, so the check below cannot race (the unique index is the backstop).
 */
export async function openTransaction(tx: DbOrTx, actor: Actor, a: OpenTransactionArgs): Promise<Transaction> {
  if (a.offer) {
    const [existing] = await tx
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.tenantId, actor.tenantId), eq(transactions.offerId, a.offer.id)))
      .limit(1);
    if (existing) throw conflict(`Offer ${a.offer.id} already has transaction ${existing.id}.`, "transaction_exists");
  }
  const parties = a.parties ? await normalizeParties(tx, actor.tenantId, a.parties) : await dealParties(tx, actor.tenantId, a.deal.id);
  const [row] = await tx
    .insert(transactions)
    .values({
      tenantId: actor.tenantId,
      dealId: a.deal.id,
      listingId: a.listingId ?? a.offer?.listingId ?? null,
      offerId: a.offer?.id ?? null,
      dealType: a.deal.dealType,
      amount: a.amount,
      currency: a.currency,
      parties,
      notes: a.notes ?? null,
      createdById: actor.kind === "member" ? actor.userId : null,
    })
    .returning();
  const t = await transactionAggregate(tx, row);
  await recordTransactionEvent(tx, actor, "transaction.created", t, { reason: "created" });
  return t;
}

export async function createTransaction({ db, actor }: MemberCtx, input: unknown): Promise<Transaction> {
  const data = CreateTransactionSchema.parse(input);
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    let offer: OfferRow | undefined;
    if (data.offerId) {
      [offer] = await tx
        .select()
        .from(offers)
        .where(and(eq(offers.id, data.offerId), eq(offers.tenantId, actor.tenantId)))
        .limit(1);
      if (!offer) throw invalid(`offerId: no offer ${data.offerId} in this tenant.`);
      if (data.dealId && data.dealId !== offer.dealId) throw invalid(`offerId: offer ${offer.id} belongs to deal ${offer.dealId}, not ${data.dealId}.`);
      if (offer.status !== "accepted")
        throw conflict(`Offer ${offer.id} is ${offer.status}: a transaction opens only from an accepted offer.`, "offer_not_accepted");
    }
    const dealId = data.dealId ?? offer!.dealId;
    const [deal] = await tx
      .select()
      .from(deals)
      .where(and(eq(deals.id, dealId), eq(deals.tenantId, actor.tenantId), dealAccessWhere(actor)))
      .limit(1);
    if (!deal) throw invalid(`dealId: no deal ${dealId} in this tenant that this key can see.`);
    if (data.listingId) await assertListingReadable(tx, actor, data.listingId);
    return openTransaction(tx, actor, {
      deal,
      offer,
      listingId: data.listingId,
      amount: data.amount ?? offer!.amount,
      currency: data.currency,
      parties: data.parties,
      notes: data.notes,
    });
  });
}

const FINAL = new Set(["closed", "cancelled"]);

export async function updateTransaction({ db, actor }: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<Transaction> {
  const data = UpdateTransactionSchema.parse(body);
  if (Object.keys(data).length === 0) throw invalid("body: send at least one field to change.");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const current = await loadTransactionRow(tx, actor, id, true);
    if (FINAL.has(current.status))
      throw conflict(`Transaction ${id} is ${current.status}: a closed or cancelled transaction no longer changes.`, "transaction_final");
    if (data.listingId) await assertListingReadable(tx, actor, data.listingId);
    const before = await transactionAggregate(tx, current);
    const set: Partial<TransactionRow> = { updatedAt: new Date() };
    if (data.status !== undefined) set.status = data.status;
    if (data.listingId !== undefined) set.listingId = data.listingId;
    if (data.amount !== undefined) set.amount = data.amount;
    if (data.currency !== undefined) set.currency = data.currency;
    if (data.notes !== undefined) set.notes = data.notes;
    if (data.parties !== undefined) set.parties = await normalizeParties(tx, actor.tenantId, data.parties);
    const [row] = await tx
      .update(transactions)
      .set(set)
      .where(and(eq(transactions.id, id), eq(transactions.tenantId, actor.tenantId)))
      .returning();
    const after = await transactionAggregate(tx, row);
    await recordTransactionEvent(tx, actor, "transaction.updated", after, { reason: "updated" }, before);
    return after;
  });
}

async function normalizeParties(tx: DbOrTx, tenantId: string, parties: Party[]): Promise<TransactionParty[]> {
  for (const p of parties) {
    if (!p.contactId) continue;
    const [c] = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.id, p.contactId), eq(contacts.tenantId, tenantId)))
      .limit(1);
    if (!c) throw invalid(`parties: no contact ${p.contactId} in this tenant.`);
  }
  return parties.map((p) => ({ role: p.role, name: p.name, email: p.email ?? null, taxId: p.taxId ?? null, contactId: p.contactId ?? null }));
}

/** The deal's contacts as parties, in the deal's order. */
async function dealParties(tx: DbOrTx, tenantId: string, dealId: string): Promise<TransactionParty[]> {
  const rows = await tx
    .select({ role: dealContacts.role, name: contacts.name, email: contacts.email, cpf: contacts.cpf, contactId: contacts.id })
    .from(dealContacts)
    .innerJoin(contacts, and(eq(contacts.id, dealContacts.contactId), eq(contacts.tenantId, tenantId)))
    .where(and(eq(dealContacts.tenantId, tenantId), eq(dealContacts.dealId, dealId)))
    .orderBy(asc(dealContacts.position));
  return rows.map((r) => ({ role: r.role, name: r.name, email: r.email, taxId: r.cpf, contactId: r.contactId }));
}
