import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { deals } from "./deals";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/**
 * Documents of a deal, by reference (the file lives with whoever produced it): an offer's PDF, a
 * contract's signed PDF reported by the e-signature provider. `documentId` in offer events and
 * `signedDocumentId` in `contract.signed` are ids of this table.
 */
export const dealDocuments = pgTable(
  "deal_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    dealId: parentRef("deal_id", () => deals.id),
    /** `offer_pdf`, `signed_contract`, ... */
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    /** Where the file is: a URL, or the provider's key when it gave no URL. */
    url: text("url"),
    providerKey: text("provider_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("deal_documents_tenant_deal_idx").on(t.tenantId, t.dealId)],
);

export type DealDocumentRow = typeof dealDocuments.$inferSelect;
