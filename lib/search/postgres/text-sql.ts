import { sql, type SQL } from "drizzle-orm";
import type { SearchRequest } from "../engine";
import { TEXT_WEIGHTS } from "../fields";

/**
 * `q` as a tsquery over the weight classes of `query_by`: every word must match (stemmed,
 * accent-insensitive), the last one as a prefix, `-word` excluded, `"a phrase"` adjacent.
 * Words are normalized tokens (letters and digits only), and the query text is a bound parameter.
 */
export function textQuery(req: SearchRequest): SQL | null {
  const text = tsqueryText(req);
  return text === null ? null : sql`to_tsquery('pt_unaccent', ${text})`;
}

/** The input of `to_tsquery` for `q` (also parsed by PostgreSQL for the in-memory engine). */
export function tsqueryText(req: SearchRequest): string | null {
  if (!req.words.length) return null;
  const labels = [...new Set(req.queryBy.map((f) => TEXT_WEIGHTS[f]))].sort().join("");
  const lastPlain = req.words
    .map((w, i) => (!w.exclude && !w.phrase ? i : -1))
    .filter((i) => i >= 0)
    .pop();
  const terms = req.words.map((w, i) => {
    const term = w.phrase
      ? `(${w.text
          .split(" ")
          .map((t) => `${t}:${labels}`)
          .join(" <-> ")})`
      : `${w.text}:${i === lastPlain ? "*" : ""}${labels}`;
    return w.exclude ? `!${term}` : term;
  });
  return terms.join(" & ");
}

/** Typo tolerance for when the exact text search finds nothing: trigram word similarity. */
export function typoPredicate(req: SearchRequest): { where: SQL; rank: SQL } | null {
  const words = req.words.filter((w) => !w.exclude && !w.phrase && w.text.length >= 4).map((w) => w.text);
  if (!words.length) return null;
  return {
    where: sql.join(
      words.map((w) => sql`(${w} <% d.search_text)`),
      sql` AND `,
    ),
    rank: sql.join(
      words.map((w) => sql`word_similarity(${w}, d.search_text)`),
      sql` + `,
    ),
  };
}
