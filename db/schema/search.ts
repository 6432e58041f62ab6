import { sql } from "drizzle-orm";
import {
  bigint, boolean, customType, doublePrecision, index, integer, jsonb, pgTable, real, text, uuid, type PgColumnBuilderBase,
} from "drizzle-orm/pg-core";
import { columnOf, LAT_COLUMN, LNG_COLUMN, SEARCH_FIELDS, tokensOf } from "../../lib/search/fields";
import { listings } from "./listings";
import { tenants } from "./tenants";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** Typed columns (and their normalized token columns) for every search field. */
const fieldColumns: Record<string, PgColumnBuilderBase> = {};
for (const f of SEARCH_FIELDS) {
  const c = columnOf(f.name);
  if (f.type === "string") {
    fieldColumns[c] = text(c);
    fieldColumns[tokensOf(f)] = text(tokensOf(f)).array();
  } else if (f.type === "string[]") {
    fieldColumns[c] = text(c).array();
    fieldColumns[tokensOf(f)] = text(tokensOf(f)).array();
  } else if (f.type === "int32") fieldColumns[c] = integer(c);
  else if (f.type === "int64") fieldColumns[c] = bigint(c, { mode: "number" });
  // Typesense compares floats in 32 bits; `real` columns keep our filters identical.
  else if (f.type === "float") fieldColumns[c] = real(c);
  else fieldColumns[c] = boolean(c);
}

/**
 * One search document per listing, rewritten in the transaction of every change that affects it.
 * `doc` is the stored hit document; the typed columns serve filters, sorts and facets.
 */
export const searchDocuments = pgTable(
  "search_documents",
  {
    listing_id: uuid("listing_id").primaryKey().references(() => listings.id, { onDelete: "cascade" }),
    tenant_id: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    // Access columns, never in the user's filter schema.
    assigned_to_id: uuid("assigned_to_id"),
    created_by_id: uuid("created_by_id"),
    property_created_by_id: uuid("property_created_by_id"),
    network_ids: uuid("network_ids").array().notNull().default(sql`'{}'::uuid[]`),
    doc: jsonb("doc").$type<Record<string, unknown>>().notNull(),
    tsv: tsvector("tsv").notNull(),
    /** Normalized title, address and code, for trigram typo tolerance. */
    search_text: text("search_text").notNull(),
    [LAT_COLUMN]: doublePrecision(LAT_COLUMN),
    [LNG_COLUMN]: doublePrecision(LNG_COLUMN),
    ...fieldColumns,
  },
  (t) => [
    index("search_tenant_created_idx").on(t.tenant_id, sql`created_at desc`, t.listing_id),
    index("search_tenant_price_idx").on(t.tenant_id, sql`price`),
    index("search_tenant_city_idx").on(t.tenant_id, sql`location_city_tok`),
    index("search_tenant_published_idx").on(t.tenant_id, sql`published_at desc`),
    index("search_tsv_idx").using("gin", t.tsv),
    index("search_text_trgm_idx").using("gin", sql`search_text gin_trgm_ops`),
    index("search_networks_idx").using("gin", t.network_ids),
  ],
);
