/**
 * The filter language evaluated over a tenant's in-memory columns, with exactly the semantics the
 * SQL compiler gives it (`../filter/compile-sql.ts`, search-language.md §1.3-§1.6): a leaf becomes a
 * mask of the documents it matches; negations are complements that include documents without a
 * value; `&&` and `||` combine masks. String leaves are decided once per distinct value of the field
 * (its dictionary) and then read through each document's code.
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

export function filterMask(view: QueryView, node: FilterNode): Mask {
  switch (node.kind) {
    case "and":
    case "or": {
      const a = filterMask(view, node.left);
      const b = filterMask(view, node.right);
      if (node.kind === "and") for (let i = 0; i < a.length; i++) a[i] &= b[i];
      else for (let i = 0; i < a.length; i++) a[i] |= b[i];
      return a;
    }
    case "string":
      return negated(stringLeaf(view, node), node.negate);
    case "number":
      return negated(numberLeaf(view, node), node.negate);
    case "bool":
      return negated(boolLeaf(view, node), node.negate);
    case "id":
      return negated(idLeaf(view, node), node.negate);
    case "geo": {
      const out = new Uint8Array(view.n);
      for (const s of node.shapes) geoShape(view, s, out);
      return out;
    }
  }
}

/** NOT coalesce(positive, false): positives are never true on a missing value, so this includes them. */
function negated(m: Mask, negate: boolean): Mask {
  if (negate) for (let i = 0; i < m.length; i++) m[i] ^= 1;
  return m;
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

function stringLeaf(view: QueryView, leaf: StringLeaf): Mask {
  const col = view.ix.column(leaf.field);
  const out = new Uint8Array(view.n);
  if (col.kind === "string") {
    const ok = Uint8Array.from(col.dict.entries, (e) =>
      leaf.values.some((v) => (leaf.match === "exact" ? exactEntry(e, v) : containsAll(e.tokens, v))) ? 1 : 0);
    for (let i = 0; i < view.n; i++) {
      const c = col.codes[i];
      if (c >= 0) out[i] = ok[c];
    }
    return out;
  }
  if (col.kind !== "array") throw new Error(`memory search: \`${leaf.field}\` is not a string field`);
  if (leaf.match === "exact") {
    // Some element equals the value (or starts with it, for `v*`).
    const ok = Uint8Array.from(col.elemDict.entries, (e) => (leaf.values.some((v) => exactEntry(e, v)) ? 1 : 0));
    for (let i = 0; i < view.n; i++) {
      const els = col.elems[i];
      if (els) for (const c of els) if (ok[c]) { out[i] = 1; break; }
    }
    return out;
  }
  // Contains over a list: the tokens of all elements together hold every token of the value.
  for (let i = 0; i < view.n; i++) {
    const els = col.elems[i];
    if (!els) continue;
    const tokens = els.length === 1 ? col.elemDict.entries[els[0]].tokens : els.flatMap((c) => col.elemDict.entries[c].tokens);
    if (leaf.values.some((v) => containsAll(tokens, v))) out[i] = 1;
  }
  return out;
}

function numberLeaf(view: QueryView, leaf: NumberLeaf): Mask {
  const values = view.number(leaf.field);
  // Floats compare in 32 bits on both sides, as the SQL compiler does (`::real`).
  const val = (s: string) => (leaf.fieldType === "float" ? Math.fround(Number(s)) : Number(s));
  const out = new Uint8Array(view.n);
  for (const it of leaf.items) numberItem(values, it, val, out);
  return out;
}

function numberItem(values: Float64Array, it: NumberItem, val: (s: string) => number, out: Mask): void {
  const n = out.length;
  if (it.op === "range") {
    const lo = val(it.min);
    const hi = val(it.max);
    for (let i = 0; i < n; i++) if (values[i] >= lo && values[i] <= hi) out[i] = 1;
    return;
  }
  const v = val(it.value);
  switch (it.op) {
    case "=": for (let i = 0; i < n; i++) if (values[i] === v) out[i] = 1; return;
    // A `!=` item is a complement of its own: true on a missing value too.
    case "!=": for (let i = 0; i < n; i++) if (!(values[i] === v)) out[i] = 1; return;
    case "<": for (let i = 0; i < n; i++) if (values[i] < v) out[i] = 1; return;
    case "<=": for (let i = 0; i < n; i++) if (values[i] <= v) out[i] = 1; return;
    case ">": for (let i = 0; i < n; i++) if (values[i] > v) out[i] = 1; return;
    case ">=": for (let i = 0; i < n; i++) if (values[i] >= v) out[i] = 1; return;
  }
}

function boolLeaf(view: QueryView, leaf: BoolLeaf): Mask {
  const col = view.ix.column(leaf.field);
  if (col.kind !== "bool") throw new Error(`memory search: \`${leaf.field}\` is not a bool field`);
  const out = new Uint8Array(view.n);
  for (const b of leaf.values) {
    const want = b ? 1 : 0;
    for (let i = 0; i < view.n; i++) if (col.values[i] === want) out[i] = 1;
  }
  return out;
}

function idLeaf(view: QueryView, leaf: IdLeaf): Mask {
  const out = new Uint8Array(view.n);
  if (leaf.ids === "*") return out.fill(1);
  for (const id of leaf.ids) {
    const i = view.ix.slotOf.get(id);
    if (i !== undefined && i < view.n) out[i] = 1;
  }
  return out;
}

/** PostgreSQL's `radians()`: the degrees times one constant (RADIANS_PER_DEGREE), so both round alike. */
const RADIANS_PER_DEGREE = Math.PI / 180;
const rad = (d: number) => d * RADIANS_PER_DEGREE;

/** The haversine distance of compile-geo.ts / sort-sql.ts, in metres. */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number, clamp: boolean): number {
  const s = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(clamp ? Math.min(1, Math.sqrt(s)) : Math.sqrt(s));
}

function geoShape(view: QueryView, s: GeoShape, out: Mask): void {
  const { lat, lng } = view.ix;
  if (s.type === "circle") {
    const band = (s.radiusMeters / EARTH_RADIUS_M) * (180 / Math.PI) + 1e-9;
    for (let i = 0; i < view.n; i++) {
      const y = lat[i];
      if (y >= s.lat - band && y <= s.lat + band && haversine(s.lat, s.lng, y, lng[i], true) <= s.radiusMeters) out[i] = 1;
    }
    return;
  }
  const { xs, ys, wrap } = planar(s.vertices);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  for (let i = 0; i < view.n; i++) {
    const y = lat[i];
    const x = wrap && lng[i] < 0 ? lng[i] + 360 : lng[i];
    if (y >= minY && y <= maxY && x >= minX && x <= maxX && insidePolygon(xs, ys, x, y)) out[i] = 1;
  }
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
