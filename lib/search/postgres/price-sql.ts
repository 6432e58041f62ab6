import { sql, type SQL } from "drizzle-orm";
import { columnOf, FILTER_SCHEMA } from "../fields";
import { compileFilter, type FilterNode } from "../filter";
import { isBinary, isPriceField, leafOnMissing, type PriceMask } from "../price-visibility";

/**
 * The SQL side of price visibility (`../price-visibility.ts`): a predicate true on documents
 * whose price the reader may not see, and filters, sort keys and facet columns that read such a
 * price as NULL. `null` when the scope shows every price (the tenant's own listings only).
 */
export function priceHiddenSql(mask: PriceMask): SQL | null {
  // IS DISTINCT FROM: a document without a priceVisibility counts as private (fail closed).
  const notPublic = sql`d.price_visibility IS DISTINCT FROM 'public'`;
  if (mask.kind === "none") return null;
  if (mask.kind === "all") return sql`(${notPublic})`;
  return sql`(d.tenant_id <> ${mask.tenantId}::uuid AND ${notPublic})`;
}

/** A search field's column as the reader sees it: a hidden price is NULL. */
export function fieldColumnSql(name: string, hidden: SQL | null): SQL {
  const col = sql`d.${sql.identifier(columnOf(name))}`;
  return hidden && isPriceField(name) ? sql`(CASE WHEN ${hidden} THEN NULL ELSE ${col} END)` : col;
}

/**
 * The user's filter, with each price comparison evaluated as on a missing value where the price
 * is hidden: `NOT hidden AND leaf` when a missing value fails the leaf, `hidden OR leaf` when it
 * passes (negations). The rest compiles as usual.
 */
export function userFilterSql(node: FilterNode, hidden: SQL | null): SQL {
  if (isBinary(node)) {
    const op = node.kind === "and" ? sql` AND ` : sql` OR `;
    return sql`(${userFilterSql(node.left, hidden)}${op}${userFilterSql(node.right, hidden)})`;
  }
  const compiled = compileFilter(node, FILTER_SCHEMA);
  if (!hidden || !isPriceField(node.field)) return compiled;
  return leafOnMissing(node) ? sql`(${hidden} OR ${compiled})` : sql`(NOT ${hidden} AND ${compiled})`;
}
