/**
 * One search's view of a tenant's in-memory index: the slots its scope and access rule may see, and
 * number columns as the reader sees them. Masks (a byte per slot) and slot lists (ascending) are
 * the two shapes of a set of documents the memory engine passes around.
 */
import { isPriceField } from "../price-visibility";
import type { SearchScope } from "../engine";
import type { NumberColumn, TenantIndex } from "./tenant-index";

export type Mask = Uint8Array;

/**
 * One search's view of the index: the documents its scope may see, and number columns as the
 * reader sees them (a price hidden from a public surface reads as missing, price-visibility.ts).
 */
export class QueryView {
  readonly n: number;
  readonly hidden: Uint8Array | null;
  private readonly numbers = new Map<string, Float64Array>();

  constructor(
    readonly ix: TenantIndex,
    scope: SearchScope,
  ) {
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
