/**
 * AST -> a boolean SQL expression (drizzle `sql`), with the semantics of search-language.md §1.3-§1.6.
 *
 * Safety rule: every value from the filter is a bound parameter; the only text spliced into the SQL is our own
 * fixed SQL and identifiers taken from the trusted schema (`sql.identifier`). The AST holds no raw user text
 * anyway (strings are normalized tokens, numbers are canonical decimals), so even a bug here could not splice
 * a quote into the statement.
 *
 * NULLs: positive forms may evaluate to NULL on a row with no value, which WHERE treats as false (and which lets
 * plain indexes be used). Negated forms are `NOT coalesce(positive, false)`: the complement over all rows, rows
 * with no value INCLUDED (§1.5). So use the result in WHERE/FILTER, or wrap it in `coalesce(..., false)`.
 */
import { sql, type SQL } from "drizzle-orm";
import type { BoolLeaf, FilterNode, IdLeaf, NumberItem, NumberLeaf, StringLeaf, StringValue } from "./ast";
import { compileGeoShape } from "./compile-geo";
import { ParseError, toDomainError } from "./errors";
import { parseFilter } from "./parser";
import { lookupField, type FilterField, type FilterSchema } from "./schema";

/** Parse + compile. `undefined` for an empty filter; a bad filter throws the 400 DomainError (`invalid_filter`). */
export function compileFilterString(filter: string, schema: FilterSchema): SQL | undefined {
  let ast: FilterNode | null;
  try {
    ast = parseFilter(filter, schema);
  } catch (e) {
    if (e instanceof ParseError) throw toDomainError(e);
    throw e;
  }
  return ast ? compileFilter(ast, schema) : undefined;
}

export function compileFilter(ast: FilterNode, schema: FilterSchema): SQL {
  switch (ast.kind) {
    case "and":
      return sql`(${compileFilter(ast.left, schema)} AND ${compileFilter(ast.right, schema)})`;
    case "or":
      return sql`(${compileFilter(ast.left, schema)} OR ${compileFilter(ast.right, schema)})`;
    case "string":
      return compileString(ast, fieldOf(schema, ast.field));
    case "number":
      return compileNumber(ast, fieldOf(schema, ast.field));
    case "bool":
      return compileBool(ast, fieldOf(schema, ast.field));
    case "id":
      return compileId(ast, fieldOf(schema, ast.field));
    case "geo": {
      const f = fieldOf(schema, ast.field);
      const lat = ident(required(f.lat, ast.field, "lat"));
      const lng = ident(required(f.lng, ast.field, "lng"));
      return anyOf(ast.shapes.map((s) => compileGeoShape(s, lat, lng)));
    }
  }
}

/** The complement including rows where the expression is NULL (field missing). */
const complement = (e: SQL) => sql`NOT coalesce(${e}, false)`;

/** OR of the parts; an empty list matches nothing (`f:[]`). */
function anyOf(parts: SQL[]): SQL {
  if (parts.length === 0) return sql`false`;
  return parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` OR `)})`;
}

function compileString(leaf: StringLeaf, f: FilterField): SQL {
  const col = f.derived
    ? derivedTokensSql(leaf.fieldType, ident(f.column), ident(required(f.tokens, leaf.field, "tokens")))
    : ident(required(f.tokens, leaf.field, "tokens"));
  const one = (v: StringValue) => (leaf.match === "exact" ? exact(leaf.fieldType, col, v) : contains(leaf.fieldType, col, v));
  const positive = anyOf(leaf.values.map(one));
  return leaf.negate ? complement(positive) : positive;
}

/**
 * A compactly stored field's tokens as the `text[]` the comparisons below read: the stored copy, or
 * the value itself with its accents folded, lowercased and its punctuation deleted when no copy
 * was needed (`storedTokens`, which checks that JavaScript and this SQL agree on the value).
 * `string[]` values are joined on U+001F and split back: an element holding it is never derived.
 */
export function derivedTokensSql(type: StringLeaf["fieldType"], value: SQL, stored: SQL): SQL {
  return type === "string"
    ? sql`string_to_array(coalesce(${stored}, ${derivedSql(value)}), ' ')`
    : sql`coalesce(${stored}, string_to_array(${derivedSql(sql`array_to_string(${value}, chr(31))`, DERIVED_ELEMENTS_SQL_TAIL)}, chr(31)))`;
}

/** `derivedTokens` (normalize.ts) in SQL. */
export const derivedSql = (value: SQL, tail = DERIVED_SQL_TAIL) => sql`${sql.raw(DERIVED_SQL_HEAD)}${value}${sql.raw(tail)}`;
/**
 * The SQL around the value, fixed text (exported for the migration and the benchmarks). `unaccent`
 * and a regular expression cost ~0.7 µs a row; a `translate` of the 85 accents and punctuation
 * marks cost 4.5 µs (PostgreSQL scans its whole list for each character).
 */
export const DERIVED_SQL_HEAD = "lower(regexp_replace(unaccent(";
export const DERIVED_SQL_TAIL = `), '[^A-Za-z0-9 ]', '', 'g') collate "C")`;
/** For an array's elements joined on U+001F, which the expression keeps to split them back. */
export const DERIVED_ELEMENTS_SQL_TAIL = `), '[^A-Za-z0-9 \\x1f]', '', 'g') collate "C")`;

/**
 * Tokens travel as ONE text parameter split back in SQL. Safe because a token never contains a space (space is
 * the separator in `normalizeTokens`), and it bounds the parameter count whatever the value's length.
 */
const tokenArray = (tokens: string[]) => sql`string_to_array(${tokens.join(" ")}::text, ' ')`;

/** `LIKE 'prefix%'` with the prefix escaped (normalized tokens cannot hold `%`, `_`, `\`; defence in depth). */
const likePrefix = (prefix: string) => sql`${`${prefix.replace(/[\\%_]/g, "\\$&")}%`}::text`;

/** Contains: every token of the value is a token of the field (any order); for `string[]` of any element. */
function contains(type: StringLeaf["fieldType"], col: SQL, v: StringValue): SQL {
  const all = type === "string" ? col : sql`string_to_array(array_to_string(${col}, ' '), ' ')`;
  if (!v.prefix) return sql`${all} @> ${tokenArray(v.tokens)}`;
  // `Chris P*`: earlier tokens as whole words, the last one as a prefix of some token.
  const last = v.tokens[v.tokens.length - 1];
  const prefixed = sql`EXISTS (SELECT 1 FROM unnest(${all}) AS _t(tok) WHERE _t.tok LIKE ${likePrefix(last)})`;
  if (v.tokens.length === 1) return prefixed;
  return sql`(${all} @> ${tokenArray(v.tokens.slice(0, -1))} AND ${prefixed})`;
}

/** Exact: the whole token sequence equals the value's (`string`), or some element's does (`string[]`). */
function exact(type: StringLeaf["fieldType"], col: SQL, v: StringValue): SQL {
  const joined = v.tokens.join(" ");
  if (type === "string") {
    // `:=Steve R*`: the token sequence starts with `steve`, then a token starting with `r`.
    return v.prefix ? sql`array_to_string(${col}, ' ') LIKE ${likePrefix(joined)}` : sql`${col} = ${tokenArray(v.tokens)}`;
  }
  if (v.prefix) return sql`EXISTS (SELECT 1 FROM unnest(${col}) AS _e(el) WHERE _e.el LIKE ${likePrefix(joined)})`;
  return sql`${col} @> ARRAY[${joined}::text]`;
}

function compileNumber(leaf: NumberLeaf, f: FilterField): SQL {
  const col = ident(f.column);
  // Typesense stores and compares floats as float32: compare as `real` on both sides so `1.1` matches `1.1`.
  const lhs = leaf.fieldType === "float" ? sql`(${col})::real` : col;
  const val = (v: string) => (leaf.fieldType === "float" ? sql`${v}::real` : sql`${v}::bigint`);
  const item = (it: NumberItem): SQL => {
    switch (it.op) {
      case "range":
        return sql`${lhs} BETWEEN ${val(it.min)} AND ${val(it.max)}`;
      case "!=":
        // A `!=` item is itself a complement (`age:[!=21, >30]` = (age<>21 incl. missing) OR age>30).
        return complement(sql`${lhs} = ${val(it.value)}`);
      case "=":
        return sql`${lhs} = ${val(it.value)}`;
      case "<":
        return sql`${lhs} < ${val(it.value)}`;
      case "<=":
        return sql`${lhs} <= ${val(it.value)}`;
      case ">":
        return sql`${lhs} > ${val(it.value)}`;
      case ">=":
        return sql`${lhs} >= ${val(it.value)}`;
    }
  };
  const positive = anyOf(leaf.items.map(item));
  return leaf.negate ? complement(positive) : positive;
}

function compileBool(leaf: BoolLeaf, f: FilterField): SQL {
  const col = ident(f.column);
  // Literal true/false, not a parameter: postgres.js serialises a string parameter typed boolean as false.
  const positive = anyOf(leaf.values.map((b) => sql`${col} = ${sql.raw(b ? "true" : "false")}`));
  return leaf.negate ? complement(positive) : positive;
}

/** Ids compare as text, so an id that is not even a valid uuid is just "unknown" (no match), never a SQL error. */
function compileId(leaf: IdLeaf, f: FilterField): SQL {
  const col = ident(f.column);
  const positive =
    leaf.ids === "*"
      ? sql`true`
      : leaf.ids.length === 0
        ? sql`false`
        : sql`${col}::text IN (${sql.join(
            leaf.ids.map((id) => sql`${id}::text`),
            sql`, `,
          )})`;
  return leaf.negate ? complement(positive) : positive;
}

function fieldOf(schema: FilterSchema, name: string): FilterField {
  const f = lookupField(schema, name);
  if (!f) throw new Error(`compileFilter: field \`${name}\` is not in the schema the AST is compiled against`);
  return f;
}

function required(column: string | undefined, field: string, key: string): string {
  if (!column) throw new Error(`FilterSchema: field \`${field}\` needs a \`${key}\` column`);
  return column;
}

/** `name` or `table.name` from the trusted schema, each part quoted as an identifier. */
function ident(column: string): SQL {
  return sql.join(
    column.split(".").map((part) => sql.identifier(part)),
    sql.raw("."),
  );
}
