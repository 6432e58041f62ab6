/**
 * The filter language evaluated over a tenant's in-memory columns, with exactly the semantics the
 * SQL compiler gives it (`../filter/compile-sql.ts`, search-language.md §1.3-§1.6): a filter narrows
 * a list of candidate slots, `&&` one side after the other and `||` as the union of both sides;
 * negations are complements that include documents without a value. String leaves are decided once
 * per distinct value of the field (its dictionary) and then read through each document's code.
 */
import type { BoolLeaf, FilterNode, GeoShape, IdLeaf, NumberItem, NumberLeaf, StringLeaf } from "../filter";
import { bitsetOf, hasBitsets, slotsOfBits } from "./bitsets";
import { geoTest } from "./geo";
import { slotsOf, type Mask, type QueryView, type SlotList } from "./query-view";
import { containsAll, exactEntry, passingCodes } from "./string-match";

/**
 * The slots in scope that pass all of `filters` (ANDed), ascending. The conjunction's leaves are
 * tried on a small sample first and applied most selective first, each on the survivors of the
 * previous ones, so a narrow leaf (one neighbourhood) makes the others cost little.
 */
export function narrowAll(view: QueryView, filters: FilterNode[], inScope: Mask): SlotList {
  const all = filters.flatMap(conjuncts);
  // Conjuncts on low-cardinality columns are ANDed as bitsets first: their survivors start the list.
  const bitParts = all.filter((p) => hasBitsets(view, p));
  const parts = all.filter((p) => !bitParts.includes(p));
  let list: SlotList | null = null;
  if (bitParts.length) {
    const bits = bitParts
      .map((p) => bitsetOf(view, p))
      .reduce((acc, b) => {
        for (let w = 0; w < acc.length; w++) acc[w] &= b[w];
        return acc;
      });
    list = slotsOfBits(bits, inScope);
  }
  if (!parts.length) return list ?? slotsOf(inScope);
  const every = list ?? view.ix.everySlot(view.n);
  if (parts.length > 1) {
    const step = Math.max(1, Math.floor(every.length / 256));
    const sample = new Int32Array(Math.ceil(every.length / step));
    for (let x = 0, j = 0; x < every.length; x += step) sample[j++] = every[x];
    const passed = new Map(parts.map((p) => [p, narrow(view, p, sample).length]));
    parts.sort((a, b) => passed.get(a)! - passed.get(b)!);
  }
  if (!list) {
    // The first leaf reads every slot; the scope then keeps its own (in place: the list is new).
    const first = narrow(view, parts.shift()!, every);
    list = first === every ? slotsOf(inScope) : first;
    if (list !== every) {
      let m = 0;
      for (let x = 0; x < list.length; x++) if (inScope[list[x]]) list[m++] = list[x];
      list = list.subarray(0, m);
    }
  }
  for (const p of parts) {
    if (!list.length) break;
    list = narrow(view, p, list);
  }
  return list;
}

function conjuncts(n: FilterNode): FilterNode[] {
  return n.kind === "and" ? [...conjuncts(n.left), ...conjuncts(n.right)] : [n];
}

/** The slots of `list` whose documents pass `node` (ascending, like `list`). */
export function narrow(view: QueryView, node: FilterNode, list: SlotList): SlotList {
  switch (node.kind) {
    case "and":
      return narrow(view, node.right, narrow(view, node.left, list));
    case "or":
      return union(narrow(view, node.left, list), narrow(view, node.right, list));
    case "string":
      return stringLeaf(view, node, list);
    case "number":
      return numberLeaf(view, node, list);
    case "bool":
      return boolLeaf(view, node, list);
    case "id":
      return idLeaf(view, node, list);
    case "geo":
      return geoLeaf(view, node.shapes, list);
  }
}

/** Two ascending subsets of one list, merged. */
function union(a: SlotList, b: SlotList): SlotList {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let m = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out[m++] = a[i++];
      j++;
    } else out[m++] = a[i] < b[j] ? a[i++] : b[j++];
  }
  while (i < a.length) out[m++] = a[i++];
  while (j < b.length) out[m++] = b[j++];
  return out.subarray(0, m);
}

/*
 * Each leaf keeps the slots where `positive XOR negate` holds: a negation is NOT coalesce(positive,
 * false) in SQL, so a document without a value (never positive) passes it.
 */

function stringLeaf(view: QueryView, leaf: StringLeaf, list: SlotList): SlotList {
  const col = view.ix.column(leaf.field);
  const out = new Int32Array(list.length);
  const neg = leaf.negate ? 1 : 0;
  let m = 0;
  if (col.kind === "string") {
    const ok = passingCodes(view, leaf);
    const codes = col.codes;
    for (let x = 0; x < list.length; x++) {
      const i = list[x];
      const c = codes[i];
      if (((c >= 0 ? ok[c] : 0) ^ neg) === 1) out[m++] = i;
    }
    return out.subarray(0, m);
  }
  if (col.kind !== "array") throw new Error(`memory search: \`${leaf.field}\` is not a string field`);
  // Exact: some element equals the value (or starts with it, for `v*`).
  const ok = leaf.match === "exact" ? Uint8Array.from(col.elemDict.entries, (e) => (leaf.values.some((v) => exactEntry(e, v)) ? 1 : 0)) : null;
  for (let x = 0; x < list.length; x++) {
    const i = list[x];
    const els = col.elems[i];
    let hit = 0;
    if (els && ok) {
      for (const c of els)
        if (ok[c]) {
          hit = 1;
          break;
        }
    } else if (els) {
      // Contains over a list: the tokens of all elements together hold every token of the value.
      const tokens = els.length === 1 ? col.elemDict.entries[els[0]].tokens : els.flatMap((c) => col.elemDict.entries[c].tokens);
      if (leaf.values.some((v) => containsAll(tokens, v))) hit = 1;
    }
    if ((hit ^ neg) === 1) out[m++] = i;
  }
  return out.subarray(0, m);
}

function numberLeaf(view: QueryView, leaf: NumberLeaf, list: SlotList): SlotList {
  const values = view.number(leaf.field);
  // Floats compare in 32 bits on both sides, as the SQL compiler does (`::real`).
  const val = (s: string) => (leaf.fieldType === "float" ? Math.fround(Number(s)) : Number(s));
  const out = new Int32Array(list.length);
  const neg = leaf.negate;
  if (leaf.items.length === 1) {
    // One item (the usual case): a loop per operator, with no per-document dispatch.
    const it = leaf.items[0];
    let m = 0;
    if (it.op === "range") {
      const lo = val(it.min);
      const hi = val(it.max);
      for (let x = 0; x < list.length; x++) {
        const v = values[list[x]];
        if ((v >= lo && v <= hi) !== neg) out[m++] = list[x];
      }
      return out.subarray(0, m);
    }
    const c = val(it.value);
    for (let x = 0; x < list.length; x++) {
      const v = values[list[x]];
      if (numberTest(it.op, v, c) !== neg) out[m++] = list[x];
    }
    return out.subarray(0, m);
  }
  const items = leaf.items.map((it) => (it.op === "range" ? { op: it.op, a: val(it.min), b: val(it.max) } : { op: it.op, a: val(it.value), b: 0 }));
  let m = 0;
  for (let x = 0; x < list.length; x++) {
    const v = values[list[x]];
    let hit = false;
    for (const it of items)
      if (it.op === "range" ? v >= it.a && v <= it.b : numberTest(it.op, v, it.a)) {
        hit = true;
        break;
      }
    if (hit !== neg) out[m++] = list[x];
  }
  return out.subarray(0, m);
}

/** One comparison; NaN (missing) fails all but `!=`, which is a complement of its own (true on a missing value). */
function numberTest(op: Exclude<NumberItem["op"], "range">, v: number, c: number): boolean {
  switch (op) {
    case "=":
      return v === c;
    case "!=":
      return !(v === c);
    case "<":
      return v < c;
    case "<=":
      return v <= c;
    case ">":
      return v > c;
    case ">=":
      return v >= c;
  }
}

function boolLeaf(view: QueryView, leaf: BoolLeaf, list: SlotList): SlotList {
  const col = view.ix.column(leaf.field);
  if (col.kind !== "bool") throw new Error(`memory search: \`${leaf.field}\` is not a bool field`);
  const wantTrue = leaf.values.includes(true);
  const wantFalse = leaf.values.includes(false);
  const out = new Int32Array(list.length);
  const neg = leaf.negate;
  let m = 0;
  for (let x = 0; x < list.length; x++) {
    const v = col.values[list[x]];
    if (((v === 1 && wantTrue) || (v === 0 && wantFalse)) !== neg) out[m++] = list[x];
  }
  return out.subarray(0, m);
}

function idLeaf(view: QueryView, leaf: IdLeaf, list: SlotList): SlotList {
  if (leaf.ids === "*") return leaf.negate ? new Int32Array(0) : list;
  const want = new Set<number>();
  for (const id of leaf.ids) {
    const i = view.ix.slotOf.get(id);
    if (i !== undefined && i < view.n) want.add(i);
  }
  const out = new Int32Array(list.length);
  let m = 0;
  for (let x = 0; x < list.length; x++) if (want.has(list[x]) !== leaf.negate) out[m++] = list[x];
  return out.subarray(0, m);
}

function geoLeaf(view: QueryView, shapes: GeoShape[], list: SlotList): SlotList {
  const tests = shapes.map((s) => geoTest(view, s));
  const out = new Int32Array(list.length);
  let m = 0;
  if (tests.length === 1) {
    const test = tests[0];
    for (let x = 0; x < list.length; x++) if (test(list[x])) out[m++] = list[x];
  } else {
    for (let x = 0; x < list.length; x++) if (tests.some((t) => t(list[x]))) out[m++] = list[x];
  }
  return out.subarray(0, m);
}
