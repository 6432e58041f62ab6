/**
 * Values of string / string[] clauses and of the special `id` field (search-language.md §1.2-§1.5, §1.6 id).
 *
 * String values are normalized here, once, with the same `normalizeTokens` used at indexing time; the AST only
 * ever holds tokens, which is why `:=` is case/accent/punctuation-insensitive and why the compiler never sees
 * the raw text.
 */
import type { IdLeaf, StringLeaf, StringValue } from "./ast";
import { MSG, ParseError } from "./errors";
import { normalizeTokens } from "./normalize";
import { type Span, bracketed, equalityPrefix, skipThenSpaces, splitToValues } from "./span";

/**
 * `value` is the trimmed text after the field's `:`. Operators: `=` exact, `!=` NOT exact, `!` NOT contains,
 * none = contains. Then either `[item, ...]` (ORed items, commas split except inside backticks) or one atom that
 * runs to the end of the clause, commas and spaces included.
 */
export function parseStringValue(field: string, fieldType: StringLeaf["fieldType"], value: Span, pos: number): StringLeaf {
  const raw = value.text;
  let match: StringLeaf["match"] = "contains";
  let negate = false;
  let rest: Span = value;
  if (raw.startsWith("=")) {
    match = "exact";
    rest = skipThenSpaces(value, 1);
  } else if (raw.length >= 2 && raw[0] === "!") {
    // `!=v` is NOT exact, `!v` / `! v` NOT contains. A lone `!` is just a (punctuation-only, hence empty) value.
    negate = true;
    if (raw[1] === "=") match = "exact";
    rest = skipThenSpaces(value, match === "exact" ? 2 : 1);
  }
  if (rest.text.length === 0) throw new ParseError(MSG.emptyValue(field), rest.pos);

  const list = bracketed(rest);
  const items = list ? splitToValues(list) : [rest];
  return { kind: "string", field, fieldType, pos, match, negate, values: items.map((it) => stringValue(field, it)) };
}

/**
 * A trailing `*` (on a value longer than one character) marks a prefix. The check runs on the item as written:
 * list items have lost their backticks by now, a single atom has not, so `` f:`Jo*` `` is NOT a prefix while
 * `` f:[`Jo*`] `` is. That is Typesense's behaviour and the doc's grammar (`str_atom` vs `str_item`).
 */
function stringValue(field: string, item: Span): StringValue {
  const prefix = item.text.length > 1 && item.text.endsWith("*");
  const tokens = normalizeTokens(prefix ? item.text.slice(0, -1) : item.text);
  // Empty, only punctuation, an empty backtick pair, a lone `*`: all "Filter value cannot be empty." (§1.4)
  if (tokens.length === 0) throw new ParseError(MSG.emptyValue(field), item.pos);
  return { tokens, prefix };
}

/**
 * `id:v`, `id:=v`, `id:!=v`, `id:[a, b]`, `id:*`, `id:!=*`. Ids are compared raw (backticks removed, not
 * tokenized). Without brackets Typesense still splits on commas and keeps only the first id; we keep that.
 */
export function parseIdValue(field: string, value: Span, pos: number): IdLeaf {
  if (value.text.length === 0) throw new ParseError(MSG.emptyValue(field), value.pos);
  const { negate, rest } = equalityPrefix(value);
  if (rest.text.length === 0) throw new ParseError(MSG.emptyValue(field), rest.pos);

  const list = bracketed(rest);
  if (list) {
    const ids = splitToValues(list).map((s) => s.text);
    return { kind: "id", field, pos, negate, ids: ids.includes("*") ? "*" : ids };
  }
  const first = splitToValues(rest)[0];
  if (!first) throw new ParseError(MSG.emptyValue(field), rest.pos);
  return { kind: "id", field, pos, negate, ids: first.text === "*" ? "*" : [first.text] };
}
