import { sql } from "drizzle-orm";
import { date, index, jsonb, numeric, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { dealDocuments } from "./deal-documents";
import { deals, dealType } from "./deals";
import { listings } from "./listings";
import { members } from "./members";
import { offers } from "./offers";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

export const transactionStatus = pgEnum("transaction_status", ["open", "closed", "cancelled"]);
export const paymentMethod = pgEnum("payment_method", ["boleto", "invoice"]);
export const paymentStatus = pgEnum("payment_status", ["pending", "paid", "cancelled", "expired"]);
export const transferStatus = pgEnum("payment_transfer_status", ["processing", "failed", "done"]);
export const contractStatus = pgEnum("contract_status", ["pending", "uploaded", "signing", "signed", "refused", "cancelled", "expired"]);
export const signerStatus = pgEnum("contract_signer_status", ["pending", "signed", "refused"]);

/** A party of a transaction (buyer, seller, tenant, landlord, guarantor...), copied from the deal's contacts by default. */
export type TransactionParty = { role: string; name: string; email: string | null; taxId: string | null; contactId: string | null };

/**
 * The closing of a deal: opened from the deal and an accepted offer (`offerId`, at most one
 * transaction per offer) or directly; holds the parties, the agreed amount, its contracts and payments.
 */
export const transactions = pgTable(
  "transactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    dealId: parentRef("deal_id", () => deals.id),
    listingId: uuid("listing_id").references(() => listings.id, { onDelete: "set null" }),
    offerId: uuid("offer_id").references(() => offers.id, { onDelete: "set null" }),
    dealType: dealType("deal_type").notNull(),
    status: transactionStatus("status").notNull().default("open"),
    amount: numeric("amount", { precision: 14, scale: 2 }).notNull(),
    currency: text("currency").notNull().default("BRL"),
    parties: jsonb("parties").$type<TransactionParty[]>().notNull().default([]),
    notes: text("notes"),
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("transactions_tenant_created_idx").on(t.tenantId, t.createdAt),
    index("transactions_tenant_deal_idx").on(t.tenantId, t.dealId),
    uniqueIndex("transactions_tenant_offer_key").on(t.tenantId, t.offerId).where(sql`${t.offerId} is not null`),
  ],
);

/**
 * A payment of a transaction collected through a payment provider (bank slip or instant-payment
 * invoice). Provider notifications find it by `(method, providerId)` in the tenant and move
 * `status` / `transferStatus` only forward (lib/providers/payment-notifications.ts).
 */
export const transactionPayments = pgTable(
  "transaction_payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    transactionId: parentRef("transaction_id", () => transactions.id),
    method: paymentMethod("method").notNull(),
    providerId: text("provider_id").notNull(),
    amount: numeric("amount", { precision: 14, scale: 2 }).notNull(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    status: paymentStatus("status").notNull().default("pending"),
    transferStatus: transferStatus("transfer_status"),
    paidAmount: numeric("paid_amount", { precision: 14, scale: 2 }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("transaction_payments_tenant_tx_idx").on(t.tenantId, t.transactionId),
    uniqueIndex("transaction_payments_tenant_provider_key").on(t.tenantId, t.method, t.providerId),
  ],
);

/**
 * An e-signature envelope of a transaction or of a deal: its documents and signers carry the
 * provider's keys, which notifications match. `signedEventAt` is set in the same statement that
 * decides to write `contract.signed`, so the event is written once per contract.
 */
export const contracts = pgTable(
  "contracts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    dealId: parentRef("deal_id", () => deals.id),
    transactionId: uuid("transaction_id").references(() => transactions.id, { onDelete: "cascade" }),
    listingId: uuid("listing_id").references(() => listings.id, { onDelete: "set null" }),
    documentType: text("document_type").notNull(),
    envelopeKey: text("envelope_key").notNull(),
    status: contractStatus("status").notNull().default("pending"),
    signedDocumentId: uuid("signed_document_id").references(() => dealDocuments.id, { onDelete: "set null" }),
    signedAt: timestamp("signed_at", { withTimezone: true }),
    signedEventAt: timestamp("signed_event_at", { withTimezone: true }),
    deadlineAt: timestamp("deadline_at", { withTimezone: true }),
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("contracts_tenant_deal_idx").on(t.tenantId, t.dealId),
    index("contracts_tenant_tx_idx").on(t.tenantId, t.transactionId),
    uniqueIndex("contracts_tenant_envelope_key").on(t.tenantId, t.envelopeKey),
  ],
);

export const contractDocuments = pgTable(
  "contract_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    contractId: parentRef("contract_id", () => contracts.id),
    key: text("key").notNull(),
    name: text("name").notNull(),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("contract_documents_contract_key").on(t.contractId, t.key), index("contract_documents_tenant_key_idx").on(t.tenantId, t.key)],
);

export const contractSigners = pgTable(
  "contract_signers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    contractId: parentRef("contract_id", () => contracts.id),
    key: text("key").notNull(),
    name: text("name").notNull(),
    email: text("email"),
    status: signerStatus("status").notNull().default("pending"),
    addedAt: timestamp("added_at", { withTimezone: true }),
    signedAt: timestamp("signed_at", { withTimezone: true }),
    refusedAt: timestamp("refused_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("contract_signers_contract_key").on(t.contractId, t.key)],
);

export type TransactionRow = typeof transactions.$inferSelect;
export type TransactionPaymentRow = typeof transactionPayments.$inferSelect;
export type ContractRow = typeof contracts.$inferSelect;
export type ContractDocumentRow = typeof contractDocuments.$inferSelect;
export type ContractSignerRow = typeof contractSigners.$inferSelect;
export type PaymentStatus = (typeof paymentStatus.enumValues)[number];
export type TransferStatus = (typeof transferStatus.enumValues)[number];
export type ContractStatus = (typeof contractStatus.enumValues)[number];
