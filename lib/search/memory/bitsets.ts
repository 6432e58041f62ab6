/**
 * Filter conjuncts on low-cardinality columns (strings with few distinct values, bools) evaluated
 * on the index's per-value bitsets (`TenantIndex.codeBitsets`): a word at a time instead of a
 * document at a time. Same semantics as the list leaves of evaluate.ts, which they start.
 */
import type { BoolLeaf, FilterNode, StringLeaf } from "../filter";
import { passingCodes } from "./string-match";
import type { Mask, QueryView, SlotList } from "./query-view";

/** Whether every leaf under `node` is a string or bool leaf on a column with bitsets. */
export function hasBitsets(view: QueryView, node: FilterNode): boolean {
  if (node.kind === "and" || node.kind === "or") return hasBitsets(view, node.left) && hasBitsets(view, node.right);
  if (node.kind !== "string" && node.kind !== "bool") return false;
  // The leaf's kind must be the column's (the parser guarantees it; a mismatch scans and throws).
  return view.ix.column(node.field).kind === node.kind && view.ix.codeBitsets(node.field) !== null;
}

/** The slots passing `node` as a new bitset (`hasBitsets` holds); a negation includes missing values. */
export function bitsetOf(view: QueryView, node: FilterNode): Uint32Array {
  if (node.kind === "and" || node.kind === "or") {
    const a = bitsetOf(view, node.left);
    const b = bitsetOf(view, node.right);
    if (node.kind === "and") for (let w = 0; w < a.length; w++) a[w] &= b[w];
    else for (let w = 0; w < a.length; w++) a[w] |= b[w];
    return a;
  }
  const leaf = node as StringLeaf | BoolLeaf;
  const sets = view.ix.codeBitsets(leaf.field)!;
  const ok = leaf.kind === "string" ? passingCodes(view, leaf) : Uint8Array.of(leaf.values.includes(false) ? 1 : 0, leaf.values.includes(true) ? 1 : 0);
  const out = new Uint32Array(sets[0]?.length ?? Math.ceil(view.ix.capacity / 32));
  for (let c = 0; c < sets.length; c++) {
    if (!ok[c]) continue;
    const set = sets[c];
    for (let w = 0; w < out.length; w++) out[w] |= set[w];
  }
  if (leaf.negate) for (let w = 0; w < out.length; w++) out[w] = ~out[w];
  return out;
}

/** The slots in scope whose bit is set, ascending. */
export function slotsOfBits(bits: Uint32Array, inScope: Mask): SlotList {
  const n = inScope.length;
  const out = new Int32Array(n);
  let m = 0;
  for (let w = 0; w < bits.length && w * 32 < n; w++) {
    let word = bits[w];
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      word &= word - 1;
      const i = w * 32 + bit;
      if (i < n && inScope[i]) out[m++] = i;
    }
  }
  return out.subarray(0, m);
}
