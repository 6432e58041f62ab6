import { z } from "zod";
import type { ContractDocumentRow, ContractRow, ContractSignerRow, TransactionPaymentRow, TransactionRow } from "../../db/schema";
import { DecimalString } from "../listings/schemas";
import { PageQuery, pageSchema } from "../schemas/paging";

export const TRANSACTION_STATUSES = ["open", "closed", "cancelled"] as const;
export const PARTY_ROLES = ["buyer", "seller", "tenant", "landlord", "owner", "guarantor", "broker", "witness", "other"] as const;

const Amount = DecimalString.refine((v) => Number(v) > 0, "must be greater than zero");
const Currency = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as BRL");
const Key = z.string().trim().min(1).max(200);

const Party = z
  .strictObject({
    role: z.enum(PARTY_ROLES),
    name: z.string().trim().min(1).max(200),
    email: z.email().max(320).nullable().optional(),
    taxId: z
      .string()
      .trim()
      .regex(/^[0-9./-]{11,18}$/, "must be a CPF or CNPJ")
      .nullable()
      .optional(),
    contactId: z.uuid().nullable().optional().meta({ description: "A contact of the tenant." }),
  })
  .meta({ id: "TransactionPartyInput" });

export const CreateTransactionSchema = z
  .strictObject({
    dealId: z.uuid().optional().meta({ description: "The deal; required without `offerId`, and when given with it, the offer's deal." }),
    offerId: z
      .uuid()
      .optional()
      .meta({ description: "An `accepted` offer of the deal: the transaction takes its deal, listing and amount. One transaction per offer." }),
    listingId: z.uuid().optional().meta({ description: "A listing of the tenant that the key can read (else 400, as for an unknown id)." }),
    amount: Amount.optional().meta({ description: "Agreed value, decimal string; required without `offerId`." }),
    currency: Currency.default("BRL"),
    parties: z.array(Party).max(20).optional().meta({ description: "Default: the deal's contacts with their roles." }),
    notes: z.string().max(5000).optional(),
  })
  .refine((v) => v.dealId || v.offerId, { message: "send dealId, offerId or both", path: ["dealId"] })
  .refine((v) => v.offerId || v.amount, { message: "amount is required without offerId", path: ["amount"] })
  .meta({ id: "TransactionCreate" });
export type CreateTransactionInput = z.infer<typeof CreateTransactionSchema>;

export const UpdateTransactionSchema = z
  .strictObject({
    status: z.enum(TRANSACTION_STATUSES).meta({ description: "`open` → `closed` or `cancelled`; both are final." }),
    listingId: z.uuid().nullable(),
    amount: Amount,
    currency: Currency,
    parties: z.array(Party).max(20),
    notes: z.string().max(5000).nullable(),
  })
  .partial()
  .meta({ id: "TransactionUpdate" });

export const ListTransactionsQuery = z
  .strictObject({ ...PageQuery, dealId: z.uuid().optional(), status: z.enum(TRANSACTION_STATUSES).optional() })
  .meta({ id: "ListTransactionsQuery" });
export type ListTransactionsQueryInput = z.infer<typeof ListTransactionsQuery>;

export const AddPaymentSchema = z
  .strictObject({
    method: z.enum(["boleto", "invoice"]).meta({ description: "`boleto` (bank slip) or `invoice` (instant payment)." }),
    providerId: Key.meta({ description: "The payment provider's id of the slip or invoice; notifications are matched by it." }),
    amount: Amount,
    dueDate: z.iso.date().meta({ description: "YYYY-MM-DD." }),
  })
  .meta({ id: "PaymentCreate" });

export const AddContractSchema = z
  .strictObject({
    documentType: z.string().trim().min(1).max(100).meta({ description: "e.g. `purchase_agreement`, `lease`." }),
    envelopeKey: Key.meta({ description: "The e-signature provider's envelope key; unique in the tenant." }),
    documents: z
      .array(z.strictObject({ key: Key, name: z.string().trim().min(1).max(200) }))
      .min(1)
      .max(20)
      .refine((d) => new Set(d.map((x) => x.key)).size === d.length, "document keys must be unique"),
    signers: z
      .array(z.strictObject({ key: Key, name: z.string().trim().min(1).max(200), email: z.email().max(320) }))
      .max(50)
      .refine((s) => new Set(s.map((x) => x.key)).size === s.length, "signer keys must be unique"),
  })
  .meta({ id: "ContractCreate" });

export const PaymentSchema = z
  .object({
    id: z.uuid(),
    transactionId: z.uuid(),
    method: z.enum(["boleto", "invoice"]),
    providerId: z.string(),
    amount: z.string(),
    dueDate: z.string(),
    status: z.enum(["pending", "paid", "cancelled", "expired"]),
    transferStatus: z.enum(["processing", "failed", "done"]).nullable().meta({ description: "The payout of the collected money, as the provider reports it." }),
    paidAmount: z.string().nullable(),
    paidAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Payment" });
export type Payment = z.infer<typeof PaymentSchema>;

export const ContractSchema = z
  .object({
    id: z.uuid(),
    dealId: z.uuid(),
    transactionId: z.uuid().nullable(),
    listingId: z.uuid().nullable(),
    documentType: z.string(),
    envelopeKey: z.string(),
    status: z.enum(["pending", "uploaded", "signing", "signed", "refused", "cancelled", "expired"]),
    signedDocumentId: z.uuid().nullable().meta({ description: "The signed PDF in the deal's documents, once the provider reported it." }),
    signedAt: z.string().nullable(),
    deadlineAt: z.string().nullable(),
    documents: z.array(z.object({ key: z.string(), name: z.string(), uploadedAt: z.string().nullable(), closedAt: z.string().nullable() })),
    signers: z.array(
      z.object({
        key: z.string(),
        name: z.string(),
        email: z.string().nullable(),
        status: z.enum(["pending", "signed", "refused"]),
        signedAt: z.string().nullable(),
        refusedAt: z.string().nullable(),
      }),
    ),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Contract" });
export type Contract = z.infer<typeof ContractSchema>;

export const TransactionSchema = z
  .object({
    id: z.uuid(),
    dealId: z.uuid(),
    listingId: z.uuid().nullable(),
    offerId: z.uuid().nullable(),
    dealType: z.enum(["sale", "rental"]),
    status: z.enum(TRANSACTION_STATUSES),
    amount: z.string().meta({ description: "Decimal string with two places." }),
    currency: z.string(),
    parties: z.array(
      z.object({ role: z.string(), name: z.string(), email: z.string().nullable(), taxId: z.string().nullable(), contactId: z.string().nullable() }),
    ),
    notes: z.string().nullable(),
    payments: z.array(PaymentSchema),
    contracts: z.array(ContractSchema),
    createdById: z.uuid().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Transaction" });
export type Transaction = z.infer<typeof TransactionSchema>;

/** `listTransactions`: one page of transactions. */
export const TransactionPageSchema = pageSchema(TransactionSchema, "TransactionPage");

/** `listDealContracts`. */
export const ContractListSchema = z.object({ items: z.array(ContractSchema) });

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function serializePayment(p: TransactionPaymentRow): Payment {
  return {
    id: p.id,
    transactionId: p.transactionId,
    method: p.method,
    providerId: p.providerId,
    amount: p.amount,
    dueDate: p.dueDate,
    status: p.status,
    transferStatus: p.transferStatus,
    paidAmount: p.paidAmount,
    paidAt: iso(p.paidAt),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function serializeContract(c: ContractRow, docs: ContractDocumentRow[], signers: ContractSignerRow[]): Contract {
  return {
    id: c.id,
    dealId: c.dealId,
    transactionId: c.transactionId,
    listingId: c.listingId,
    documentType: c.documentType,
    envelopeKey: c.envelopeKey,
    status: c.status,
    signedDocumentId: c.signedDocumentId,
    signedAt: iso(c.signedAt),
    deadlineAt: iso(c.deadlineAt),
    documents: docs.map((d) => ({ key: d.key, name: d.name, uploadedAt: iso(d.uploadedAt), closedAt: iso(d.closedAt) })),
    signers: signers.map((s) => ({ key: s.key, name: s.name, email: s.email, status: s.status, signedAt: iso(s.signedAt), refusedAt: iso(s.refusedAt) })),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function serializeTransaction(t: TransactionRow, payments: Payment[], contracts: Contract[]): Transaction {
  return {
    id: t.id,
    dealId: t.dealId,
    listingId: t.listingId,
    offerId: t.offerId,
    dealType: t.dealType,
    status: t.status,
    amount: t.amount,
    currency: t.currency,
    parties: t.parties,
    notes: t.notes,
    payments,
    contracts,
    createdById: t.createdById,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
