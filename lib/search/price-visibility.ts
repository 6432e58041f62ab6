import type { SearchScope } from "./engine";
import type { BinaryNode, FilterNode, LeafNode } from "./filter";

/**
 * A listing's `priceVisibility: private` hides its price from everyone outside its own tenant:
 * partner agencies that see it through a network, and visitors of public surfaces. Both engines
 * apply the same rule through this module. For such a reader a hidden price is a missing value
 * everywhere: blank in the returned document, and in filters, sorts and facets exactly as if the
 * document had no price (positive comparisons fail, negations match, it sorts last, facets and
 * their stats skip it), so no query can narrow it down.
 */

/** Search fields that carry the price or a price it falls back to (a development's typology). */
export const PRICE_FIELDS: readonly string[] = ["price", "typologyBasePrice", "typologyPricePerSqm"];
/** Document keys blanked with them; `priceFormatted` is stored but not a search field. */
const PRICE_DOCUMENT_KEYS: readonly string[] = [...PRICE_FIELDS, "priceFormatted"];

export const isPriceField = (name: string): boolean => PRICE_FIELDS.includes(name);

/** `&&` / `||` (a union discriminant, which TypeScript does not narrow by elimination). */
export const isBinary = (n: FilterNode): n is BinaryNode => n.kind === "and" || n.kind === "or";

/** Whose private prices the reader of a scope may not see. */
export type PriceMask =
  /** Only the tenant's own listings are in scope: every price is theirs to see. */
  | { kind: "none" }
  /** Partner networks are in scope: other tenants' private prices are hidden. */
  | { kind: "other-tenants"; tenantId: string }
  /** A public surface: the reader is outside every tenant, every private price is hidden. */
  | { kind: "all" };

export function priceMaskOf(scope: SearchScope): PriceMask {
  if (scope.publicOnly) return { kind: "all" };
  if (scope.networkIds.length) return { kind: "other-tenants", tenantId: scope.tenantId };
  return { kind: "none" };
}

/** Hidden unless the listing's price is explicitly public or the reader is its own tenant. */
export function isPriceHidden(mask: PriceMask, tenantId: unknown, priceVisibility: unknown): boolean {
  if (mask.kind === "none" || priceVisibility === "public") return false;
  return mask.kind === "all" || tenantId !== mask.tenantId;
}

/** The document with every price key set to null (a copy; the stored document is untouched). */
export function withoutPrice(doc: Record<string, unknown>): Record<string, unknown> {
  const out = { ...doc };
  for (const k of PRICE_DOCUMENT_KEYS) if (k in out) out[k] = null;
  return out;
}

export function maskDocument(mask: PriceMask, tenantId: unknown, doc: Record<string, unknown>): Record<string, unknown> {
  return isPriceHidden(mask, tenantId, doc.priceVisibility) ? withoutPrice(doc) : doc;
}

/**
 * What a leaf evaluates to on a document without a value for its field: positive forms are
 * false; negated forms (`price:!=5`, `price:!=[1..9]`, and `!=` items in a list) are true, since
 * negations include missing values (search-language.md §1.5).
 */
export function leafOnMissing(leaf: LeafNode): boolean {
  const positive = leaf.kind === "number" && leaf.items.some((it) => it.op === "!=");
  return "negate" in leaf && leaf.negate ? !positive : positive;
}

/**
 * The filter with every price leaf guarded, as an AST: a leaf whose value on a missing price is
 * false becomes `visible && leaf`, one whose value is true becomes `hidden || leaf`. There is no
 * NOT above a leaf in this language, so replacing the leaves' values on hidden documents is
 * exactly "evaluate as if the price were missing". `hidden` and `visible` are the engine's own
 * predicates (complements of each other).
 */
export function guardPriceLeaves(node: FilterNode, hidden: FilterNode, visible: FilterNode): FilterNode {
  if (isBinary(node)) {
    return { ...node, left: guardPriceLeaves(node.left, hidden, visible), right: guardPriceLeaves(node.right, hidden, visible) };
  }
  if (!isPriceField(node.field)) return node;
  return leafOnMissing(node) ? { kind: "or", left: hidden, right: node, pos: node.pos } : { kind: "and", left: visible, right: node, pos: node.pos };
}
