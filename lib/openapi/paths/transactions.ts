import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import {
  AddContractSchema,
  AddPaymentSchema,
  ContractListSchema,
  ContractSchema,
  CreateTransactionSchema,
  ListTransactionsQuery,
  PaymentSchema,
  TransactionPageSchema,
  TransactionSchema,
  UpdateTransactionSchema,
} from "../../transactions/schemas";
import { API_KEY_SECURITY, TOO_LARGE, UNAUTHORIZED_KEY, errors, ok, uuidParam } from "../common";

const ListQueryDoc = ListTransactionsQuery.extend({
  page: ListTransactionsQuery.shape.page.meta({ type: "integer", minimum: 1, default: 1, description: "Page number, from 1." }),
  pageSize: ListTransactionsQuery.shape.pageSize.meta({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 50,
    description: "Items per page, 1 to 100 (default 50).",
  }),
});

export const TRANSACTION_EVENTS =
  "**Events.** `transaction.created` when a transaction opens (here or by an offer's `accept`), `transaction.updated` " +
  "on every change: a PATCH, a payment or contract added, and a payment or contract moved by a provider notification. " +
  "`data.entityType` `transaction`; `data.data` is the transaction as this API returns it with `transactionId` in " +
  "place of `id` (payments and contracts included), plus `change`: `{reason: created | updated | payment_added | " +
  "payment_updated | contract_added | contract_updated, paymentId?, contractId?}`; `data.old` holds the previous state " +
  "in the same shape for `transaction.updated`. `userId` is the member, or null for provider notifications.\n\n" +
  "`contract.signed` is written once per contract when every signer has signed (the last `sign`, or `document_closed`), " +
  "after the signed PDF's reference is stored in the deal's documents: `data.data` has `contractId`, `transactionId` " +
  "(null for a deal's own contract), `dealId`, `listingId`, `entityType` (`transaction` or `deal`), `entityId`, " +
  "`documentType`, `envelopeId` (the provider's envelope key), `signedDocumentId` (the deal document), `occurredAt`.";

const ACCESS =
  "**Access.** A broad key sees every transaction of the tenant; a restricted key (a broker's) sees the transactions " +
  "of deals assigned to or created by its member; others answer 404 like another tenant's.";
const NOT_FOUND = "No such transaction in the tenant, or one the key cannot see (`not_found`).";
const FINAL = "The transaction is `closed` or `cancelled` (`transaction_final`).";

export function registerTransactionPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/crm/transactions",
    tags: ["Transactions"],
    operationId: "listTransactions",
    summary: "List transactions",
    description: `Newest first, filtered by \`dealId\` and \`status\`, each with its payments and contracts.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { query: ListQueryDoc },
    responses: { 200: ok("One page of transactions.", TransactionPageSchema), ...errors({ 400: "Invalid query.", 401: UNAUTHORIZED_KEY }) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/transactions",
    tags: ["Transactions"],
    operationId: "createTransaction",
    summary: "Open a transaction",
    description:
      "From an `accepted` offer (`offerId`: deal, listing and amount come from it; one transaction per offer) or directly " +
      "from a deal (`dealId` and `amount`). `parties` default to the deal's contacts with their roles; `currency` to BRL. " +
      `Status starts \`open\`. Writes \`transaction.created\`.\n\n${TRANSACTION_EVENTS}\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: CreateTransactionSchema, example: { offerId: "3fa85f64-5717-4562-b3fc-2c963f66afa6" } } },
      },
    },
    responses: {
      201: ok("The new transaction.", TransactionSchema),
      ...errors({
        400: "Invalid body, or a deal, offer, listing or contact that is not in the tenant (or not visible to the key), or an offer of another deal.",
        401: UNAUTHORIZED_KEY,
        409: "The offer is not `accepted` (`offer_not_accepted`), or already has a transaction (`transaction_exists`).",
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/crm/transactions/{id}",
    tags: ["Transactions"],
    operationId: "getTransaction",
    summary: "Read a transaction",
    description: `The transaction with its parties, payments and contracts (documents and signers).\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "transaction") },
    responses: { 200: ok("The transaction.", TransactionSchema), ...errors({ 401: UNAUTHORIZED_KEY, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "patch",
    path: "/api/v1/crm/transactions/{id}",
    tags: ["Transactions"],
    operationId: "updateTransaction",
    summary: "Change a transaction",
    description:
      "Any of `status` (`open` → `closed` or `cancelled`, both final), `listingId`, `amount`, `currency`, `parties` " +
      `(replaced whole), \`notes\`. Writes \`transaction.updated\` with the previous state in \`old\`.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "transaction"), body: { required: true, content: { "application/json": { schema: UpdateTransactionSchema } } } },
    responses: {
      200: ok("The transaction after the change.", TransactionSchema),
      ...errors({ 400: "Invalid body or an empty one.", 401: UNAUTHORIZED_KEY, 404: NOT_FOUND, 409: FINAL, 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/transactions/{id}/payments",
    tags: ["Transactions"],
    operationId: "addTransactionPayment",
    summary: "Attach a payment (bank slip or instant-payment invoice)",
    description:
      "Records a slip (`boleto`) or invoice (`invoice`) issued at the payment provider. The provider's notifications " +
      "(`event.log.type` `boleto`/`invoice`) find it by `(method, providerId)` in the tenant and move its `status` " +
      "(`pending` → `paid`, `cancelled`, `expired`) and `transferStatus` (`processing`, `failed`, `done`) forward only. " +
      `Writes \`transaction.updated\` (\`change.reason\` \`payment_added\`).\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: {
      params: uuidParam("id", "transaction"),
      body: {
        required: true,
        content: {
          "application/json": {
            schema: AddPaymentSchema,
            example: { method: "boleto", providerId: "5656565656565656", amount: "15000.00", dueDate: "2026-12-10" },
          },
        },
      },
    },
    responses: {
      201: ok("The payment.", PaymentSchema),
      ...errors({
        400: "Invalid body.",
        401: UNAUTHORIZED_KEY,
        404: NOT_FOUND,
        409: `${FINAL} Or the same method and providerId is already a payment of the tenant (\`payment_exists\`).`,
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/transactions/{id}/contracts",
    tags: ["Transactions"],
    operationId: "addTransactionContract",
    summary: "Attach a contract (e-signature envelope)",
    description:
      "An envelope at the e-signature provider with its documents and signers, by the provider's keys. Its notifications " +
      "(`upload`, `add_signer`, `sign`, `document_closed`, `refusal`, `cancel`, `deadline`) find it by `envelopeKey` (else " +
      "a document key) and move it `pending` → `uploaded` → `signing` → `signed` | `refused` | `cancelled` | `expired` " +
      "(final states never change). `add_signer` adds a signer the provider reports; a `sign` for a signer key the contract " +
      `does not have changes nothing. Writes \`transaction.updated\` (\`contract_added\`).\n\n${TRANSACTION_EVENTS}\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: {
      params: uuidParam("id", "transaction"),
      body: {
        required: true,
        content: {
          "application/json": {
            schema: AddContractSchema,
            example: {
              documentType: "purchase_agreement",
              envelopeKey: "env-8f14e45f",
              documents: [{ key: "doc-1", name: "Contrato de compra e venda.pdf" }],
              signers: [{ key: "sig-1", name: "Ana Souza", email: "ana@example.com" }],
            },
          },
        },
      },
    },
    responses: {
      201: ok("The contract.", ContractSchema),
      ...errors({
        400: "Invalid body (repeated document or signer keys included).",
        401: UNAUTHORIZED_KEY,
        404: NOT_FOUND,
        409: `${FINAL} Or the envelopeKey is already a contract of the tenant (\`contract_exists\`).`,
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/crm/deals/{id}/contracts",
    tags: ["Transactions"],
    operationId: "listDealContracts",
    summary: "List a deal's contracts",
    description: "Every contract of the deal (its transactions' and its own), oldest first. Deal row rules apply.",
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "deal") },
    responses: { 200: ok("The contracts.", ContractListSchema), ...errors({ 401: UNAUTHORIZED_KEY, 404: "No such deal visible to the key." }) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/crm/deals/{id}/contracts",
    tags: ["Transactions"],
    operationId: "addDealContract",
    summary: "Attach a contract to a deal",
    description:
      "A contract of the deal itself (a brokerage or exclusivity agreement), without a transaction; same body and " +
      "notification rules as a transaction's contract. Writes no event until `contract.signed` (`entityType` `deal`).",
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "deal"), body: { required: true, content: { "application/json": { schema: AddContractSchema } } } },
    responses: {
      201: ok("The contract.", ContractSchema),
      ...errors({
        400: "Invalid body.",
        401: UNAUTHORIZED_KEY,
        404: "No such deal visible to the key.",
        409: "The envelopeKey is already a contract of the tenant (`contract_exists`).",
        413: TOO_LARGE,
      }),
    },
  });
}
