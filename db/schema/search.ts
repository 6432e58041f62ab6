import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uuid,
  type PgColumnBuilderBase,
} from "drizzle-orm/pg-core";
import { columnOf, LAT_COLUMN, LNG_COLUMN, SEARCH_FIELDS, tokensOf, type SearchField } from "./search-fields";
import { listings } from "./listings";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** Typed columns (and normalized token columns) for the search fields on one side of the split. */
function fieldColumns(wide: boolean): Record<string, PgColumnBuilderBase> {
  const cols: Record<string, PgColumnBuilderBase> = {};
  for (const f of SEARCH_FIELDS.filter((x) => Boolean(x.wide) === wide)) {
    const c = columnOf(f.name);
    if (f.type === "string") {
      cols[c] = text(c);
      // Space-joined, NULL when derived from the value (storedTokens in lib/search/filter/normalize.ts).
      cols[tokensOf(f)] = text(tokensOf(f));
    } else if (f.type === "string[]") {
      cols[c] = text(c).array();
      // NULL when every element is derived from the value (storedElements).
      cols[tokensOf(f)] = text(tokensOf(f)).array();
    } else if (f.type === "int32") cols[c] = integer(c);
    else if (f.type === "int64") cols[c] = bigint(c, { mode: "number" });
    // Typesense compares floats in 32 bits; `real` columns keep our filters identical.
    else if (f.type === "float") cols[c] = real(c);
    else cols[c] = boolean(c);
  }
  return cols;
}

/**
 * The narrow half of the index: one row per listing with the columns filters, counts, sorts and
 * facets read. Kept small so scans of a large tenant stay in memory.
 */
export const searchDocuments = pgTable(
  "search_documents",
  {
    listing_id: uuid("listing_id")
      .primaryKey()
      .references(() => listings.id, { onDelete: "cascade" }),
    tenant_id: parentRef("tenant_id", () => tenants.id),
    // Access columns, never in the user's filter schema.
    assigned_to_id: uuid("assigned_to_id"),
    created_by_id: uuid("created_by_id"),
    property_created_by_id: uuid("property_created_by_id"),
    network_ids: uuid("network_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** In the tenant's active stage: partners see shared listings only while they are on air. */
    on_air: boolean("on_air").notNull().default(false),
    [LAT_COLUMN]: doublePrecision(LAT_COLUMN),
    [LNG_COLUMN]: doublePrecision(LNG_COLUMN),
    /**
     * The tenant's `search_version` when this row was last written (a trigger stamps it, migration
     * 0027): in-memory indexes read the rows changed since the version they hold.
     */
    search_version: bigint("search_version", { mode: "number" }).notNull().default(0),
    ...fieldColumns(false),
  },
  (t) => [
    index("search_tenant_version_idx").on(t.tenant_id, t.search_version),
    // A tenant's documents newest first (the default order, NULLS LAST as the ORDER BY says, so a
    // page stops after per_page rows). Large tenants are searched in memory (lib/search/memory), so
    // the filter-shaped and covering indexes this table had cost every write and 870 bytes a listing
    // for the searches left to PostgreSQL: small tenants, partner networks, exclusions and phrases.
    // Without the listing id: ties of the same millisecond are few, and an incremental sort orders
    // them for 16 bytes a listing less.
    index("search_tenant_created_idx").on(t.tenant_id, sql`created_at desc nulls last`),
    index("search_networks_idx").using("gin", t.network_ids),
    // search_map_point_idx (migration 0045, hand-written for its INCLUDE): the map's points at public precision.
    // The pricing tool's comparables: one city's priced sale listings of a tenant, by latitude band.
    index("search_valuation_idx")
      .on(t.tenant_id, sql`location_city`, sql`location_latitude`)
      .where(sql`listing_type = 'sale' and price > 0 and total_area > 0`),
  ],
);

/**
 * Documents removed from the index, with the tenant's `search_version` of the removal (written by
 * a trigger on `search_documents`, migration 0027), so in-memory indexes drop them too.
 */
export const searchRemovals = pgTable(
  "search_removals",
  {
    tenant_id: uuid("tenant_id").notNull(),
    listing_id: uuid("listing_id").notNull(),
    search_version: bigint("search_version", { mode: "number" }).notNull(),
    removed_at: timestamp("removed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("search_removals_tenant_version_idx").on(t.tenant_id, t.search_version), index("search_removals_removed_at_idx").on(t.removed_at)],
);

/**
 * The wide half: full text and long strings, the full-text vectors, and what the columns cannot
 * give back of a document (lib/search/stored-document.ts).
 */
export const searchTexts = pgTable(
  "search_texts",
  {
    listing_id: uuid("listing_id")
      .primaryKey()
      .references(() => searchDocuments.listing_id, { onDelete: "cascade" }),
    tenant_id: parentRef("tenant_id", () => tenants.id),
    /** The document's fields beside its columns (photos, labels, exact decimals); null when none. */
    extras: jsonb("extras").$type<Record<string, unknown>>(),
    /** Normalized title, address and code, for trigram typo tolerance. */
    search_text: text("search_text").notNull(),
    ...fieldColumns(true),
    /**
     * The full-text vector. It had a table of its own, narrower to recheck, but large tenants'
     * text is searched in memory, and a row here costs less than a row and a key there (issue 12).
     */
    tsv: tsvector("tsv"),
    /** The document's `createdAt`, the tie-break of text ranking, so a text-only search never leaves this table. */
    created_at: bigint("created_at", { mode: "number" }),
  },
  (t) => [
    index("search_text_trgm_idx").using("gin", sql`search_text gin_trgm_ops`),
    // Leads with the tenant (btree_gin), so a broad word never reads other tenants' matches.
    index("search_texts_tsv_idx").using("gin", t.tenant_id, t.tsv),
  ],
);

const wideColumns = (f: SearchField) => (f.type === "string" || f.type === "string[]" ? [columnOf(f.name), tokensOf(f)] : [columnOf(f.name)]);

/**
 * What queries read: both halves as one relation (view `search_index`, created by a migration
 * with exactly this text; a test fails when the field registry changes without a new one). The
 * join is a LEFT JOIN on the primary key, so PostgreSQL drops it from every query that reads only
 * narrow columns.
 */
export function searchIndexViewSql(): string {
  const wide = SEARCH_FIELDS.filter((f) => f.wide)
    .flatMap(wideColumns)
    .map((c) => `x.${c}`)
    .join(", ");
  return `CREATE VIEW search_index AS SELECT d.*, x.extras, x.search_text, ${wide}, x.tsv, x.tenant_id AS tsv_tenant_id FROM search_documents d LEFT JOIN search_texts x ON x.listing_id = d.listing_id;`;
}
