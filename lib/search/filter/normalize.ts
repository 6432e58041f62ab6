/**
 * Text normalization shared by indexing and filtering (search-language.md §0).
 *
 * Typesense never compares raw strings: the stored value and the filter value both go through the same
 * tokenizer, which is what makes `:=` case-, accent- and punctuation-insensitive. This module is that
 * tokenizer. It MUST stay pure and deterministic: the `<field>_tok` / `<field>_elems` columns are written
 * with it (or left NULL where SQL derives the same tokens, `storedTokens` below), PostgreSQL filters
 * compare against them and the in-memory index tokenizes values with it directly, so any change
 * here requires a re-index, and a change to what it does with accents or punctuation must change
 * FOLD_FROM/FOLD_TO and DERIVED_SQL_* (compile-sql.ts) with it (test/integration/search/compact-tokens.test.ts).
 */

/** Typesense cuts each filter token at 100 characters; we cut stored tokens the same way so they still match. */
export const MAX_TOKEN_CHARS = 100;

/**
 * Letters that Unicode does not decompose but iconv `ASCII//TRANSLIT` (what Typesense uses) spells in ASCII.
 * Without this, `Straße` would never match a filter typed as `strasse`.
 */
const TRANSLIT: Readonly<Record<string, string>> = {
  ß: "ss",
  ẞ: "ss",
  æ: "ae",
  Æ: "ae",
  œ: "oe",
  Œ: "oe",
  ø: "o",
  Ø: "o",
  đ: "d",
  Đ: "d",
  ð: "d",
  Ð: "d",
  ł: "l",
  Ł: "l",
  þ: "th",
  Þ: "th",
  ı: "i",
  ħ: "h",
  Ħ: "h",
  ŧ: "t",
  Ŧ: "t",
  ŋ: "ng",
  Ŋ: "ng",
};

const MARK = /^\p{M}$/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/**
 * Splits `s` into normalized tokens:
 * - ASCII letters/digits are kept, lowercased;
 * - space and `\n` split tokens (a tab does NOT: it is punctuation);
 * - any other ASCII character is deleted, joining its neighbours (`AT&T` -> `att`);
 * - accented Latin letters are transliterated (`É` -> `e`, `ß` -> `ss`); other non-ASCII letters and digits
 *   (Greek, Cyrillic, CJK, Devanagari...) are kept, lowercased, with their combining marks; non-ASCII
 *   punctuation, symbols and spaces are deleted like ASCII punctuation;
 * - each token is cut to 100 code points; empty tokens are dropped.
 */
export function normalizeTokens(s: string): string[] {
  const tokens: string[] = [];
  let current = "";
  // Whether a combining mark belongs to a kept non-ASCII letter. Marks on an ASCII base (NFD of `é` is
  // `e` + U+0301) are dropped: that IS the transliteration. Marks on a deleted character are dropped too, so
  // the result never depends on punctuation that happened to sit next to the mark.
  let keepMarks = false;
  const flush = () => {
    // NFC puts back together what NFD took apart in kept scripts (Hangul syllables, Greek tonos...).
    if (current.length > 0) tokens.push(cut(current.normalize("NFC")));
    current = "";
  };
  for (const ch of s.normalize("NFD")) {
    if (ch.charCodeAt(0) < 0x80) {
      keepMarks = false;
      if (ch === " " || ch === "\n") flush();
      else if (isAsciiAlnum(ch.charCodeAt(0))) current += ch.toLowerCase();
      // every other ASCII character (punctuation, tab, control) is deleted
    } else if (MARK.test(ch)) {
      if (keepMarks) current += ch;
    } else if (TRANSLIT[ch] !== undefined) {
      current += TRANSLIT[ch];
      keepMarks = false;
    } else if (LETTER_OR_DIGIT.test(ch)) {
      current += ch.toLowerCase();
      keepMarks = true;
    } else {
      keepMarks = false; // non-ASCII punctuation, symbols and spaces are deleted
    }
  }
  flush();
  return tokens;
}

/** One `string[]` element as stored in the `_elems` column: its tokens joined by a single space. */
export function normalizeElement(s: string): string {
  return normalizeTokens(s).join(" ");
}

function isAsciiAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function cut(token: string): string {
  // Cut by code points, not UTF-16 units, so an astral character is never split in half.
  if (token.length <= MAX_TOKEN_CHARS) return token;
  const chars = Array.from(token);
  return chars.length <= MAX_TOKEN_CHARS ? token : chars.slice(0, MAX_TOKEN_CHARS).join("");
}

/**
 * How a field's tokens are stored (`<field>_tok`, space-joined `text`): NULL when PostgreSQL can
 * derive them from the value itself (`derivedTokensSql`: accents folded, lowercased, punctuation
 * deleted), which holds for most values (`sale`, `São Paulo`, `AP-1042`, `Av.
 * Paulista`, a description). Only the others (repeated spaces, tabs, other scripts) keep a copy.
 */
export function storedTokens(value: string, derive = true): string | null {
  const joined = normalizeTokens(value).join(" ");
  return derive && isDerivable(value, joined) ? null : joined;
}

/** The `<field>_elems` column: each element's tokens joined by a space, or NULL when every element is derivable. */
export function storedElements(values: string[], derive = true): string[] | null {
  const elems = values.map(normalizeElement);
  if (!derive) return elems;
  // An element holding U+001F (the separator the SQL joins them on) or no token keeps the copy.
  return elems.every((e, i) => e !== "" && !values[i].includes("\u001f") && isDerivable(values[i], e)) ? null : elems;
}

/**
 * Precomposed accented Latin letters and the ASCII letter the tokenizer spells each in. PostgreSQL's
 * `unaccent` spells them the same (lowercase aside); a test checks every pair against both.
 */
export const FOLD_FROM = "áàâãäåéèêëíìîïóòôõöúùûüýÿçñÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÝÇÑ";
export const FOLD_TO = "aaaaaaeeeeiiiiooooouuuuyycnaaaaaaeeeeiiiiooooouuuuycn";

/**
 * What `derivedSql` (compile-sql.ts) gives for a value made of ASCII and FOLD_FROM, in JavaScript:
 * `lower(regexp_replace(unaccent(value), '[^A-Za-z0-9 ]', '', 'g') collate "C")`. The two must agree exactly.
 */
export function derivedTokens(value: string): string {
  let out = "";
  for (const ch of value) {
    const i = FOLD_FROM.indexOf(ch);
    const c = i >= 0 ? FOLD_TO[i] : ch;
    if (c === " " || isAsciiAlnum(c.charCodeAt(0))) out += c;
  }
  return out.toLowerCase();
}

function isDerivable(value: string, joined: string): boolean {
  // Only characters both sides treat alike: ASCII, and the letters `unaccent` spells in ASCII.
  for (const ch of value) if (ch.charCodeAt(0) > 0x7f && !FOLD_FROM.includes(ch)) return false;
  return derivedTokens(value) === joined;
}
