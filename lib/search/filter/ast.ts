/**
 * The typed AST a `filter_by` string parses into. Everything the compiler needs is resolved here (values are
 * already normalized, validated and typed), so compiling never has to look at user text again; that is what
 * keeps user input out of the SQL text. `pos` is the 0-based offset of the node's first character in the
 * filter string, kept for error messages and debugging.
 */

export type FilterNode = BinaryNode | LeafNode;

/** `&&` / `||`. Both have the same precedence and associate left to right (§1.1), so `A || B && C` = `(A || B) && C`. */
export interface BinaryNode {
  kind: "and" | "or";
  left: FilterNode;
  right: FilterNode;
  pos: number;
}

export type LeafNode = StringLeaf | NumberLeaf | BoolLeaf | GeoLeaf | IdLeaf;

interface LeafBase {
  /** Schema key of the field (trusted: it was looked up in the schema). */
  field: string;
  pos: number;
}

/** One string value (or list item), already normalized with `normalizeTokens`. Never empty. */
export interface StringValue {
  tokens: string[];
  /** The value ended in `*`: its last token is a prefix (contains) or the whole value is (exact). */
  prefix: boolean;
}

/**
 * `f:v` (contains), `f:=v` (exact), `f:!v` (NOT contains), `f:!=v` (NOT exact) and their `[...]` lists.
 * `values` are ORed; an empty list matches nothing, and with `negate` everything.
 */
export interface StringLeaf extends LeafBase {
  kind: "string";
  fieldType: "string" | "string[]";
  match: "contains" | "exact";
  negate: boolean;
  values: StringValue[];
}

export type NumberOp = "=" | "!=" | "<" | "<=" | ">" | ">=";

/** Canonical decimal text (ints via BigInt so int64 keeps full precision; floats via Number). */
export type NumberItem = { op: NumberOp; value: string } | { op: "range"; min: string; max: string };

/** Items are ORed; `negate` (`f:!=[...]`) takes the complement of their union, NULL rows included. */
export interface NumberLeaf extends LeafBase {
  kind: "number";
  fieldType: "int32" | "int64" | "float";
  negate: boolean;
  items: NumberItem[];
}

export interface BoolLeaf extends LeafBase {
  kind: "bool";
  negate: boolean;
  values: boolean[];
}

export type GeoShape =
  | { type: "circle"; lat: number; lng: number; radiusMeters: number }
  /** Vertices as [lat, lng], at least 3, closing vertex removed, either winding. */
  | { type: "polygon"; vertices: Array<[number, number]> };

/** Shapes are ORed. There is no negated geo form. */
export interface GeoLeaf extends LeafBase {
  kind: "geo";
  shapes: GeoShape[];
}

/** The document id: raw ids (not tokenized), `*` = every document. Unknown ids simply match nothing. */
export interface IdLeaf extends LeafBase {
  kind: "id";
  negate: boolean;
  ids: string[] | "*";
}
