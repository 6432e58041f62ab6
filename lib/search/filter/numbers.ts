/**
 * Values of int32 / int64 / float clauses (search-language.md §1.2, §1.6), following Typesense's
 * `extract_num_comparator` + `validate_numerical_filter_value` so that the same inputs produce the same
 * errors: a value that is neither a number nor starts with a comparator nor contains `..` is an "invalid
 * comparator"; a number of the wrong kind is "Not an int32." etc.
 */
import type { NumberItem, NumberLeaf, NumberOp } from "./ast";
import { ParseError } from "./errors";
import { bracketed, splitTrim, sub, trimSpan, type Span } from "./span";

type NumType = NumberLeaf["fieldType"];

const INT = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
// C strtof also reads these; they only decide "is this a bare number?" (so `inf` on an int field says "Not an int32.").
const FLOAT_WORDS = /^[+-]?(inf|infinity|nan)$/i;
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Parses the value of a numeric clause (the optional `:=` was already removed).
 * Forms: `5`, `<5` `<=5` `>5` `>=5` `!=5`, `1..5`, `[item, ...]`, `!=[item, ...]` where items are any of the first three.
 */
export function parseNumberValue(field: string, type: NumType, value: Span, pos: number): NumberLeaf {
  const list = bracketed(value);
  if (list) return { kind: "number", field, fieldType: type, pos, negate: false, items: parseList(field, type, list) };

  const { op, rest } = extractComparator(field, value);
  if (op === "range") return { kind: "number", field, fieldType: type, pos, negate: false, items: [parseRange(field, type, rest)] };
  const negatedList = op === "!=" ? bracketed(rest) : undefined;
  if (negatedList) {
    // `f:!=[a, b]`: the complement of the union of the items (§1.5), rows with no value included.
    return { kind: "number", field, fieldType: type, pos, negate: true, items: parseList(field, type, negatedList) };
  }
  return { kind: "number", field, fieldType: type, pos, negate: false, items: [{ op, value: validate(field, type, rest) }] };
}

function parseList(field: string, type: NumType, inner: Span): NumberItem[] {
  // Items are ORed (§1.6); `StringUtils::split` semantics: empty items are skipped, so `[]` matches nothing.
  return splitTrim(inner, ",").map((item) => {
    const { op, rest } = extractComparator(field, item);
    return op === "range" ? parseRange(field, type, rest) : { op, value: validate(field, type, rest) };
  });
}

function parseRange(field: string, type: NumType, s: Span): NumberItem {
  const bounds = splitTrim(s, "..");
  // Typesense accepts `5..` or `1..2..3` and then reads garbage; we refuse anything but exactly two bounds.
  if (bounds.length !== 2) throw invalidComparator(field, s.pos);
  return { op: "range", min: validate(field, type, bounds[0]), max: validate(field, type, bounds[1]) };
}

function extractComparator(field: string, s: Span): { op: NumberOp | "range"; rest: Span } {
  const t = s.text;
  if (INT.test(t) || FLOAT.test(t) || FLOAT_WORDS.test(t)) return { op: "=", rest: s };
  // Two-character operators first, so `<=` is not read as `<` followed by `=5`.
  for (const op of ["<=", ">=", "!=", "<", ">"] as const) {
    if (t.startsWith(op)) return { op, rest: trimSpan(sub(s, op.length)) };
  }
  if (t.includes("..")) return { op: "range", rest: s };
  throw invalidComparator(field, s.pos);
}

function invalidComparator(field: string, pos: number): ParseError {
  return new ParseError(`Error with filter field \`${field}\`: Numerical field has an invalid comparator.`, pos);
}

/** Validates one number for the field type and returns its canonical text (bound later as a parameter). */
function validate(field: string, type: NumType, s: Span): string {
  const t = s.text;
  const fail = (what: string) => new ParseError(`Error with filter field \`${field}\`: ${what}`, s.pos);
  if (type === "int32") {
    if (!INT.test(t)) throw fail("Not an int32.");
    const v = toBigInt(t);
    if (v < INT32_MIN || v > INT32_MAX) throw fail(`\`${t}\` exceeds the range of an int32.`);
    return v.toString();
  }
  if (type === "int64") {
    // Typesense gives no separate overflow message for int64: out of range is just "Not an int64."
    if (!INT.test(t)) throw fail("Not an int64.");
    const v = toBigInt(t);
    if (v < INT64_MIN || v > INT64_MAX) throw fail("Not an int64.");
    return v.toString();
  }
  // Floats are float32 in Typesense (and `real` in our columns): round to float32 here, like strtof would. An
  // overflow is "Not a float." (strtof's inf/nan/hex forms are refused too); an underflow becomes 0, which also
  // keeps PostgreSQL's `real` input from raising "out of range" on e.g. `1e-50`.
  const f = FLOAT.test(t) ? Math.fround(Number(t)) : NaN;
  if (!Number.isFinite(f)) throw fail("Not a float.");
  return String(f);
}

/** BigInt of an INT-shaped string; anything longer than 20 significant digits is out of every range anyway. */
function toBigInt(t: string): bigint {
  const digits = t.replace(/^[+-]?0*/, "");
  return digits.length > 20 ? (t.startsWith("-") ? -(2n ** 70n) : 2n ** 70n) : BigInt(t);
}

/** A plain finite decimal float (used by geo values too). */
export function isPlainFloat(t: string): boolean {
  return FLOAT.test(t) && Number.isFinite(Number(t));
}
