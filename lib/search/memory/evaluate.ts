/**
 * The filter language evaluated over a tenant's in-memory columns, with exactly the semantics the
 * SQL compiler gives it (`../filter/compile-sql.ts`, search-language.md §1.3-§1.6): a filter narrows
 * a list of candidate slots, `&&` one side after the other and `||` as the union of both sides;
 * negations are complements that include documents without a value. String leaves are decided once
 * per distinct value of the field (its dictionary) and then read through each document's code.
 */
import type { BoolLeaf, FilterNode, GeoShape, IdLeaf, NumberItem, NumberLeaf, StringLeaf, StringValue } from "../filter";
import { EARTH_RADIUS_M } from "../filter/compile-geo";
import { planar } from "../filter/geo";
import { isPriceField } from "../price-visibility";
import type { SearchScope } from "../engine";
import type { DictEntry, NumberColumn, TenantIndex } from "./tenant-index";

export type Mask = Uint8Array;

/**
 * One search's view of the index: the documents its scope may see, and number columns as the
 * reader sees them (a price hidden from a public surface reads as missing, price-visibility.ts).
 */
export class QueryView {
  readonly n: number;
  readonly hidden: Uint8Array | null;
  private readonly numbers = new Map<string, Float64Array>();

  constructor(readonly ix: TenantIndex, scope: SearchScope) {
    this.n = ix.size;
    this.hidden = scope.publicOnly ? this.stringMask("priceVisibility", (raw) => raw !== "public", true) : null;
  }

  /** A number (or bool as 0/1) column, with hidden prices as NaN. */
  number(name: string): Float64Array {
    let v = this.numbers.get(name);
    if (v) return v;
    const col = this.ix.column(name);
    if (col.kind === "bool") {
      v = new Float64Array(this.n);
      for (let i = 0; i < this.n; i++) v[i] = col.values[i] < 0 ? NaN : col.values[i];
    } else {
      v = (col as NumberColumn).values;
      if (this.hidden && isPriceField(name)) {
        v = v.slice(0, this.n);
        for (let i = 0; i < this.n; i++) if (this.hidden[i]) v[i] = NaN;
      }
    }
    this.numbers.set(name, v);
    return v;
  }

  /** Documents whose raw string value passes `test` (`missing`: the answer for no value). */
  stringMask(name: string, test: (raw: string) => boolean, missing: boolean): Mask {
    const col = this.ix.column(name);
    if (col.kind !== "string") throw new Error(`memory search: \`${name}\` is not a string field`);
    const ok = Uint8Array.from(col.dict.entries, (e) => (test(e.raw) ? 1 : 0));
    const out = new Uint8Array(this.n);
    const m = missing ? 1 : 0;
    for (let i = 0; i < this.n; i++) {
      const c = col.codes[i];
      out[i] = c < 0 ? m : ok[c];
    }
    return out;
  }
}

/** The tenant and access rule (scope-sql.ts): the caller's filter only ever narrows this set. */
export function scopeMask(view: QueryView, scope: SearchScope): Mask {
  const { ix, n } = view;
  const out = ix.alive.slice(0, n);
  if (scope.access.kind === "restricted" || scope.publicOnly) {
    const isPublic = view.stringMask("visibility", (raw) => raw === "public", false);
    if (scope.access.kind === "restricted") {
      const u = scope.access.userId;
      for (let i = 0; i < n; i++) {
        if (out[i] && !isPublic[i] && ix.assignedTo[i] !== u && ix.createdBy[i] !== u && ix.propertyCreatedBy[i] !== u) out[i] = 0;
      }
    }
    if (scope.publicOnly) {
      const stage = scope.publicOnly.activeStage;
      const onStage = view.stringMask("stage", (raw) => raw === stage, false);
      for (let i = 0; i < n; i++) out[i] &= isPublic[i] & onStage[i];
    }
  }
  return out;
}

/** Slots of documents, ascending: the candidates a filter narrows. */
export type SlotList = Int32Array;

/** The slots a mask holds, ascending. */
export function slotsOf(m: Mask): SlotList {
  let len = 0;
  for (let i = 0; i < m.length; i++) len += m[i];
  const out = new Int32Array(len);
  for (let i = 0, j = 0; i < m.length; i++) if (m[i]) out[j++] = i;
  return out;
}

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
    const bits = bitParts.map((p) => bitsetOf(view, p)).reduce((acc, b) => {
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

/** Whether every leaf under `node` is a string or bool leaf on a column with bitsets. */
function hasBitsets(view: QueryView, node: FilterNode): boolean {
  if (node.kind === "and" || node.kind === "or") return hasBitsets(view, node.left) && hasBitsets(view, node.right);
  if (node.kind !== "string" && node.kind !== "bool") return false;
  // The leaf's kind must be the column's (the parser guarantees it; a mismatch scans and throws).
  return view.ix.column(node.field).kind === node.kind && view.ix.codeBitsets(node.field) !== null;
}

/** The slots passing `node` as a new bitset (`hasBitsets` holds); a negation includes missing values. */
function bitsetOf(view: QueryView, node: FilterNode): Uint32Array {
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
function slotsOfBits(bits: Uint32Array, inScope: Mask): SlotList {
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

/** Contains (compile-sql `contains`): every token of the value among the tokens, the last as a prefix. */
function containsAll(tokens: readonly string[], v: StringValue): boolean {
  const last = v.tokens.length - 1;
  for (let j = 0; j <= last; j++) {
    const t = v.tokens[j];
    if (j === last && v.prefix ? !tokens.some((x) => x.startsWith(t)) : !tokens.includes(t)) return false;
  }
  return true;
}

/** Exact (compile-sql `exact`) for a scalar string: the same token sequence, or starting with it for `v*`. */
function exactEntry(e: DictEntry, v: StringValue): boolean {
  const joined = v.tokens.join(" ");
  return v.prefix ? e.joined.startsWith(joined) : e.joined === joined && e.tokens.length === v.tokens.length;
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
      for (const c of els) if (ok[c]) { hit = 1; break; }
    } else if (els) {
      // Contains over a list: the tokens of all elements together hold every token of the value.
      const tokens = els.length === 1 ? col.elemDict.entries[els[0]].tokens : els.flatMap((c) => col.elemDict.entries[c].tokens);
      if (leaf.values.some((v) => containsAll(tokens, v))) hit = 1;
    }
    if ((hit ^ neg) === 1) out[m++] = i;
  }
  return out.subarray(0, m);
}

/** For a scalar string column: 1 for each distinct value (dictionary code) the leaf's values match. */
function passingCodes(view: QueryView, leaf: StringLeaf): Uint8Array {
  const col = view.ix.column(leaf.field);
  if (col.kind !== "string") throw new Error(`memory search: \`${leaf.field}\` is not a scalar string field`);
  return Uint8Array.from(col.dict.entries, (e) => (leaf.values.some((v) => (leaf.match === "exact" ? exactEntry(e, v) : containsAll(e.tokens, v))) ? 1 : 0));
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
    for (const it of items) if (it.op === "range" ? v >= it.a && v <= it.b : numberTest(it.op, v, it.a)) { hit = true; break; }
    if (hit !== neg) out[m++] = list[x];
  }
  return out.subarray(0, m);
}

/** One comparison; NaN (missing) fails all but `!=`, which is a complement of its own (true on a missing value). */
function numberTest(op: Exclude<NumberItem["op"], "range">, v: number, c: number): boolean {
  switch (op) {
    case "=": return v === c;
    case "!=": return !(v === c);
    case "<": return v < c;
    case "<=": return v <= c;
    case ">": return v > c;
    case ">=": return v >= c;
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

/** PostgreSQL's `radians()`: the degrees times one constant (RADIANS_PER_DEGREE), so both round alike. */
const RADIANS_PER_DEGREE = Math.PI / 180;
const rad = (d: number) => d * RADIANS_PER_DEGREE;

/** The haversine distance of compile-geo.ts / sort-sql.ts, in metres. */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number, clamp: boolean): number {
  const s = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(clamp ? Math.min(1, Math.sqrt(s)) : Math.sqrt(s));
}

/** Whether a slot's point is inside a shape (a circle by haversine, a polygon by the even-odd rule). */
function geoTest(view: QueryView, s: GeoShape): (i: number) => boolean {
  const { lat, lng } = view.ix;
  if (s.type === "circle") {
    const band = (s.radiusMeters / EARTH_RADIUS_M) * (180 / Math.PI) + 1e-9;
    return (i) => {
      const y = lat[i];
      return y >= s.lat - band && y <= s.lat + band && haversine(s.lat, s.lng, y, lng[i], true) <= s.radiusMeters;
    };
  }
  const { xs, ys, wrap } = planar(s.vertices);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return (i) => {
    const y = lat[i];
    const x = wrap && lng[i] < 0 ? lng[i] + 360 : lng[i];
    return y >= minY && y <= maxY && x >= minX && x <= maxX && insidePolygon(xs, ys, x, y);
  };
}

/** Even-odd test with the boundary inside, as PostgreSQL's `polygon @> point`. */
function insidePolygon(xs: number[], ys: number[], x: number, y: number): boolean {
  let inside = false;
  for (let a = 0, b = xs.length - 1; a < xs.length; b = a++) {
    const [ax, ay, bx, by] = [xs[a], ys[a], xs[b], ys[b]];
    const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (Math.abs(cross) <= 1e-12 && x >= Math.min(ax, bx) && x <= Math.max(ax, bx) && y >= Math.min(ay, by) && y <= Math.max(ay, by)) return true;
    if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) inside = !inside;
  }
  return inside;
}
