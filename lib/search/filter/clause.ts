/**
 * One clause `field: value` -> one typed leaf (Typesense's `toFilter`). The clause is split at its FIRST `:`, so
 * values may contain `:` (`url:= https://example.com/1`). The field must be in the schema; its type decides how
 * the value is read (search-language.md §1.2-§1.6).
 */
import type { BoolLeaf, LeafNode } from "./ast";
import { MSG, ParseError } from "./errors";
import { parseGeoValue } from "./geo";
import { parseNumberValue } from "./numbers";
import { ID_FIELD, lookupField, type FilterSchema } from "./schema";
import { type Span, bracketed, equalityPrefix, skipThenSpaces, splitTrim, sub, trimSpan } from "./span";
import { parseIdValue, parseStringValue } from "./strings";

export function parseClause(clause: Span, schema: FilterSchema): LeafNode {
  const colon = clause.text.indexOf(":");
  if (colon < 0) throw new ParseError(MSG.noColon, clause.pos);
  const name = trimSpan(sub(clause, 0, colon));
  const value = trimSpan(sub(clause, colon + 1));
  const field = lookupField(schema, name.text);
  // Unknown field is a 400 (not 404) in a filter, and this is what stops `tenantId:=other` style probing.
  if (!field) throw new ParseError(MSG.unknownField(name.text), name.pos);
  const pos = clause.pos;
  assertListClosed(name.text, value);

  if (name.text === ID_FIELD) return parseIdValue(name.text, value, pos);
  if (field.type === "string" || field.type === "string[]") return parseStringValue(name.text, field.type, value, pos);

  // `:=` means nothing on non-string types (`age:=24` is `age:24`).
  const v = value.text.startsWith("=") ? skipThenSpaces(value, 1) : value;
  switch (field.type) {
    case "int32":
    case "int64":
    case "float":
      return parseNumberValue(name.text, field.type, v, pos);
    case "bool":
      return parseBoolValue(name.text, v, pos);
    case "geopoint":
      return parseGeoValue(name.text, v, pos);
  }
}

/** `true`, `false`, `=true`, `!=false`, `[true, false]`, `!=[true]`. Lowercase only; `!v` (no `=`) is not a bool form. */
function parseBoolValue(field: string, value: Span, pos: number): BoolLeaf {
  const { negate, rest } = equalityPrefix(value);
  if (rest.text.length === 0) throw new ParseError(MSG.emptyValue(field), rest.pos);
  const list = bracketed(rest);
  if (list) {
    const values = splitTrim(list, ",").map((item) => {
      if (item.text !== "true" && item.text !== "false") {
        throw new ParseError(`Values of filter field \`${field}\`: must be \`true\` or \`false\`.`, item.pos);
      }
      return item.text === "true";
    });
    return { kind: "bool", field, pos, negate, values };
  }
  if (rest.text !== "true" && rest.text !== "false") {
    throw new ParseError(`Value of filter field \`${field}\` must be \`true\` or \`false\`.`, rest.pos);
  }
  return { kind: "bool", field, pos, negate, values: [rest.text === "true"] };
}

/**
 * A value that opens a list with `[` must close it: Typesense would read `[a, b` as one value (or
 * a number error), silently matching something else than the user meant. Backticks quote a
 * literal `[` (`` title:=`[draft` ``). Geo lists are checked by the lexer.
 */
function assertListClosed(field: string, value: Span): void {
  const { rest } = equalityPrefix(value);
  if (rest.text.startsWith("[") && !rest.text.endsWith("]")) {
    throw new ParseError(`Value of filter field \`${field}\`: the list opened with \`[\` is not closed with \`]\`.`, rest.pos);
  }
}
