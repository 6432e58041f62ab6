/**
 * How a string leaf of the filter language matches a value (compile-sql.ts `exact` and `contains`
 * over normalized tokens), decided once per distinct value of a column (its dictionary).
 */
import type { StringLeaf, StringValue } from "../filter";
import type { QueryView } from "./query-view";
import type { DictEntry } from "./tenant-index";

/** Contains (compile-sql `contains`): every token of the value among the tokens, the last as a prefix. */
export function containsAll(tokens: readonly string[], v: StringValue): boolean {
  const last = v.tokens.length - 1;
  for (let j = 0; j <= last; j++) {
    const t = v.tokens[j];
    if (j === last && v.prefix ? !tokens.some((x) => x.startsWith(t)) : !tokens.includes(t)) return false;
  }
  return true;
}

/** Exact (compile-sql `exact`) for a scalar string: the same token sequence, or starting with it for `v*`. */
export function exactEntry(e: DictEntry, v: StringValue): boolean {
  const joined = v.tokens.join(" ");
  return v.prefix ? e.joined.startsWith(joined) : e.joined === joined && e.tokens.length === v.tokens.length;
}

/** For a scalar string column: 1 for each distinct value (dictionary code) the leaf's values match. */
export function passingCodes(view: QueryView, leaf: StringLeaf): Uint8Array {
  const col = view.ix.column(leaf.field);
  if (col.kind !== "string") throw new Error(`memory search: \`${leaf.field}\` is not a scalar string field`);
  return Uint8Array.from(col.dict.entries, (e) => (leaf.values.some((v) => (leaf.match === "exact" ? exactEntry(e, v) : containsAll(e.tokens, v))) ? 1 : 0));
}
