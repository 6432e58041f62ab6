/**
 * The field-type model a `filter_by` string is parsed and compiled against.
 *
 * Values are type-directed (search-language.md §1.2): the same text `5..10` is a range on an int field and two
 * tokens on a string field, so the parser needs the schema, not just the compiler. The schema is trusted
 * configuration written by us: column names in it are emitted into SQL as identifiers, while nothing that comes
 * from the filter string ever is.
 */

export type FieldType = "string" | "string[]" | "int32" | "int64" | "float" | "bool" | "geopoint";

export type FilterField = {
  type: FieldType;
  /**
   * Trusted SQL identifier of the raw column, `name` or `table.name` (each dot-separated part is quoted).
   * Used for numbers, bools and the special `id` field; informational for the other types.
   */
  column: string;
  /**
   * `string`: text[] column holding `normalizeTokens(value)`.
   * `string[]`: text[] column where each element is `normalizeElement(element)` (its tokens joined by one space).
   */
  tokens?: string;
  /**
   * The tokens are stored compactly (`storedTokens`/`storedElements` in normalize.ts): `string`, a
   * space-joined `text` column; both, NULL when they are derived from the value `column` holds.
   */
  derived?: boolean;
  /** `geopoint`: numeric columns with the latitude / longitude in degrees. */
  lat?: string;
  lng?: string;
};

export type FilterSchema = Record<string, FilterField>;

/**
 * Own-property lookup. A plain `schema[name]` would resolve `constructor` or `__proto__` from a user's filter
 * to Object.prototype members instead of answering "unknown field".
 */
export function lookupField(schema: FilterSchema, name: string): FilterField | undefined {
  return Object.hasOwn(schema, name) ? schema[name] : undefined;
}

/** Typesense treats the document id specially (raw, untokenized ids; `*`); so do we when the schema maps it. */
export const ID_FIELD = "id";
