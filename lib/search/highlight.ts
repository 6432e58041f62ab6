import type { Highlight } from "./engine";
import { normalizeTokens } from "./filter";

const WORD = /[\p{L}\p{N}]+/gu;
const SNIPPET_THRESHOLD = 30;
const AFFIX = 4;

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Marks the query words in one field: `<mark>` around whole-word matches, around the matched part
 * of a prefix match (`<mark>Pisc</mark>ina`), and around words sharing a stem with a query word
 * (Portuguese stemming makes `apartamentos` match `apartamento`). Text outside the marks is
 * HTML-escaped. Fields over 30 words are cut to 4 words either side of the first match.
 */
export function highlightText(text: string, words: string[], lastIsPrefix: boolean): Omit<Highlight, "field"> | null {
  if (!text || !words.length) return null;
  const parts: { start: number; end: number; mark: number }[] = [];
  const matched: string[] = [];
  for (const m of text.matchAll(WORD)) {
    const norm = normalizeTokens(m[0])[0] ?? "";
    let mark = 0;
    words.forEach((w, i) => {
      if (mark) return;
      const isLast = i === words.length - 1;
      if (norm === w) mark = m[0].length;
      else if (norm.startsWith(w) && isLast && lastIsPrefix) mark = Math.min(w.length, m[0].length);
      else if (sharesStem(norm, w)) mark = m[0].length;
    });
    parts.push({ start: m.index!, end: m.index! + m[0].length, mark });
    if (mark) matched.push(m[0].slice(0, mark));
  }
  if (!matched.length) return null;
  let from = 0;
  let to = parts.length;
  if (parts.length > SNIPPET_THRESHOLD) {
    const first = parts.findIndex((p) => p.mark);
    from = Math.max(0, first - AFFIX);
    to = Math.min(parts.length, first + AFFIX + 1);
  }
  let out = "";
  let cursor = parts[from].start;
  for (const p of parts.slice(from, to)) {
    out += escapeHtml(text.slice(cursor, p.start));
    out += p.mark
      ? `<mark>${escapeHtml(text.slice(p.start, p.start + p.mark))}</mark>${escapeHtml(text.slice(p.start + p.mark, p.end))}`
      : escapeHtml(text.slice(p.start, p.end));
    cursor = p.end;
  }
  return { snippet: out, matched_tokens: matched };
}

/** Same stem, roughly: one word is the other plus a short inflection ending. */
function sharesStem(a: string, b: string): boolean {
  if (a.length < 4 || b.length < 4) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const stem = short.slice(0, Math.max(4, short.length - 2));
  return long.startsWith(stem) && long.length - stem.length <= 4;
}
