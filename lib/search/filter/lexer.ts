/**
 * Cuts a `filter_by` string into `(`, `)`, `&&`, `||` and clauses (search-language.md §1.1).
 *
 * This mirrors Typesense's `filter::tokenize_filter_query` / `parse_filter_string` state machine rather than
 * a textbook grammar, because its quirks decide what users' filters mean: a single `&` does not end a clause
 * (`name:=AT&T`), backticks protect `( ) && ||`, `:(` opens a geo value that runs to the next `)`, `:[(`
 * a multi-geo list that runs to the matching `]`. Clause values are interpreted later, by field type.
 */
import { MSG, ParseError } from "./errors";
import { trimSpan, type Span } from "./span";

export type OpToken = { kind: "&&" | "||"; pos: number };
export type ParenToken = { kind: "("; pos: number } | { kind: ")"; pos: number };
/**
 * `clause`: `field: value`, trimmed, `pos` = its first character. `object`: `field.{ expr }` and `join`:
 * `$Coll(expr)` / `!$Coll(expr)` (§1.9), recognised only to be refused with a clear message.
 */
export type OperandToken = { kind: "clause" | "object" | "join" } & Span;
export type Token = OpToken | ParenToken | OperandToken;

export function lex(q: string): Token[] {
  const tokens: Token[] = [];
  const n = q.length;
  let i = 0;
  while (i < n) {
    const c = q[i];
    if (c === " ") {
      i++;
    } else if (c === "(" || c === ")") {
      tokens.push({ kind: c, pos: i });
      i++;
    } else if (c === "&" || c === "|") {
      // A lone `&`/`|` where an operator is expected (e.g. `(a:1) & b:2`) is an error, with this (sic) text.
      if (q[i + 1] !== c) throw new ParseError(MSG.loneOp, i);
      tokens.push({ kind: c === "&" ? "&&" : "||", pos: i });
      i += 2;
    } else if (c === "$" || (c === "!" && q[i + 1] === "$")) {
      const end = scanJoin(q, i);
      tokens.push({ kind: "join", ...trimSpan({ text: q.slice(i, end), pos: i }) });
      i = end;
    } else {
      const { end, kind } = scanClause(q, i);
      const span = trimSpan({ text: q.slice(i, end), pos: i });
      if (span.text.length > 0) tokens.push({ kind, ...span });
      i = end;
    }
  }
  return tokens;
}

/** One clause starting at `start`; returns the index just past it. Same loop as Typesense's `parse_filter_string`. */
function scanClause(q: string, start: number): { end: number; kind: "clause" | "object" } {
  const n = q.length;
  let i = start;
  let c: string | undefined = q[i];
  let inBacktick = false;
  // Quoting as the value's reader sees it, to refuse a quote that is never closed: inside a `[...]`
  // list an escaped backtick neither opens nor closes (list items honour `\``), elsewhere it does.
  // `inBacktick` keeps Typesense's own toggling, which decides where the clause ends.
  let quoteOpenedAt = -1;
  let inList = false;
  let precedingColon = false; // we just saw `:` (possibly followed by spaces)
  let isGeo = false; // inside `:( ... )`
  do {
    // Deliberate deviation: Typesense also arms the geo rule on a `:` inside backticks, so a quoted value such as
    // `` `a:(b` `` swallows the rest of the filter up to the next `)`. Ignoring it makes "strip backticks, then
    // wrap the value in backticks" (search-language.md §6) a safe way to quote any value.
    if (c === ":" && !inBacktick) precedingColon = true;
    if (c === ")" && isGeo) isGeo = false;
    if (!inBacktick && !precedingColon && c === "{" && i > 0 && q[i - 1] === ".") {
      return { end: scanObject(q, i), kind: "object" };
    }
    c = q[++i];
    // Quirk kept from Typesense: the clause's first character never toggles the backtick state.
    if (c === "`") {
      inBacktick = !inBacktick;
      if (!inList || q[i - 1] !== "\\") quoteOpenedAt = quoteOpenedAt < 0 ? i : -1;
    } else if (quoteOpenedAt < 0 && (c === "[" || c === "]")) inList = c === "[";
    if (precedingColon && c === "(") {
      isGeo = true;
      precedingColon = false;
    } else if (precedingColon && c === "[" && isMultiGeo(q, i)) {
      return { end: scanMultiGeo(q, i), kind: "clause" };
    } else if (precedingColon && c !== " ") {
      precedingColon = false;
    }
  } while (i < n && (inBacktick || isGeo || (c !== "(" && c !== ")" && !(c === "&" && q[i + 1] === "&") && !(c === "|" && q[i + 1] === "|"))));
  // Typesense would take the rest of the filter as part of this value, hiding the user's mistake.
  if (quoteOpenedAt >= 0) throw new ParseError("Unterminated backtick: the value quoted here is not closed with a backtick.", quoteOpenedAt);
  return { end: i, kind: "clause" };
}

/** `:[` followed (after spaces) by `(` starts a list of geo shapes. */
function isMultiGeo(q: string, i: number): boolean {
  let j = i + 1;
  while (j < q.length && q[j] === " ") j++;
  return q[j] === "(";
}

/** From the `[` at `i` to just past its matching `]` (the new geo syntax nests `[lat, lng]` inside). */
function scanMultiGeo(q: string, i: number): number {
  let depth = 1;
  let j = i;
  while (++j < q.length && depth > 0) {
    if (q[j] === "[") depth++;
    else if (q[j] === "]") depth--;
  }
  if (depth !== 0) throw new ParseError("Could not parse the geopoint filter.", i);
  return j;
}

/** From the `{` at `i` to just past its `}`. Object filters cannot nest (Typesense rejects that too). */
function scanObject(q: string, i: number): number {
  let depth = 1;
  let j = i;
  while (++j < q.length && depth > 0) {
    if (q[j] === "}") depth--;
    else if (q[j] === "{") throw new ParseError("Nested object filters are not supported.", j);
  }
  if (depth !== 0) throw new ParseError("Could not parse the object filter: unbalanced curly braces.", i);
  return j;
}

/** `$Coll( ... )` / `!$Coll( ... )` to just past the `)` matching the first `(`; backticks protect parentheses. */
function scanJoin(q: string, start: number): number {
  const open = q.indexOf("(", start);
  if (open < 0) throw new ParseError("Could not parse the reference filter.", start);
  let depth = 0;
  let inBacktick = false;
  for (let j = open; j < q.length; j++) {
    const c = q[j];
    if (c === "`") inBacktick = !inBacktick;
    else if (!inBacktick && c === "(") depth++;
    else if (!inBacktick && c === ")" && --depth === 0) return j + 1;
  }
  throw new ParseError("Could not parse the reference filter.", start);
}
