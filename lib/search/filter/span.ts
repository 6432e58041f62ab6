/**
 * Pieces of the filter string that remember where they came from. Typesense works on copies of substrings and
 * loses positions; we carry `pos` (0-based offset of `text[0]` in the whole filter) through every trim and
 * split so that any error can point at the exact character.
 */
export type Span = { text: string; pos: number };

/** C `isspace`, which is what Typesense's `StringUtils::trim` strips (so a tab is trimmed, though not a separator). */
export function isSpace(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\v" || c === "\f";
}

export function trimSpan(s: Span): Span {
  let a = 0;
  let b = s.text.length;
  while (a < b && isSpace(s.text[a])) a++;
  while (b > a && isSpace(s.text[b - 1])) b--;
  return { text: s.text.slice(a, b), pos: s.pos + a };
}

export function sub(s: Span, start: number, end?: number): Span {
  return { text: s.text.slice(start, end), pos: s.pos + start };
}

/** Skips `count` leading characters and then any spaces (Typesense's `while (raw[++i] == ' ')` idiom). */
export function skipThenSpaces(s: Span, count: number): Span {
  let i = count;
  while (i < s.text.length && s.text[i] === " ") i++;
  return sub(s, i);
}

/** `StringUtils::split`: split on `delim`, trim every piece, drop empty pieces. */
export function splitTrim(s: Span, delim: string): Span[] {
  const out: Span[] = [];
  let start = 0;
  for (;;) {
    const at = s.text.indexOf(delim, start);
    const piece = trimSpan(sub(s, start, at < 0 ? undefined : at));
    if (piece.text.length > 0) out.push(piece);
    if (at < 0) return out;
    start = at + delim.length;
  }
}

/**
 * `StringUtils::split_to_values`, used for `[...]` string and id lists: commas split items except inside
 * backticks, the backticks themselves are dropped, a backslash-escaped backtick is kept, each item is trimmed.
 * Quirks kept on purpose: an empty item between two commas is returned (and later rejected as an empty value),
 * a trailing empty item is not.
 */
export function splitToValues(s: Span): Span[] {
  const out: Span[] = [];
  let inside = false;
  let buf = "";
  let where: number[] = []; // absolute position of each character of `buf`
  let itemStart = s.pos;
  const push = () => {
    let a = 0;
    let b = buf.length;
    while (a < b && isSpace(buf[a])) a++;
    while (b > a && isSpace(buf[b - 1])) b--;
    out.push({ text: buf.slice(a, b), pos: a < b ? where[a] : itemStart });
  };
  for (let i = 0; i < s.text.length; i++) {
    const c = s.text[i];
    if (c === "`") {
      if (i !== 0 && s.text[i - 1] === "\\") {
        buf += c;
        where.push(s.pos + i);
      } else if (inside && buf.length > 0) inside = false;
      else inside = true;
    } else if (c === "," && !inside) {
      push();
      buf = "";
      where = [];
      itemStart = s.pos + i + 1;
    } else {
      buf += c;
      where.push(s.pos + i);
    }
  }
  if (buf.length > 0) push();
  return out;
}

/** `[ ... ]` around the whole span: returns the inside, else undefined. */
export function bracketed(s: Span): Span | undefined {
  return s.text.length >= 2 && s.text.startsWith("[") && s.text.endsWith("]") ? sub(s, 1, s.text.length - 1) : undefined;
}

/** The optional `=` / `!=` in front of a bool or id value, and what follows it. */
export function equalityPrefix(value: Span): { negate: boolean; rest: Span } {
  if (value.text.startsWith("=")) return { negate: false, rest: skipThenSpaces(value, 1) };
  if (value.text.startsWith("!=")) return { negate: true, rest: skipThenSpaces(value, 2) };
  return { negate: false, rest: value };
}
