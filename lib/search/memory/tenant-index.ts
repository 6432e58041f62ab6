import { TextIndex } from "./text-index";
import { columnOf, LAT_COLUMN, LNG_COLUMN, SEARCH_FIELDS, type SearchField } from "../fields";
import { normalizeElement, normalizeTokens } from "../filter/normalize";

/**
 * One tenant's search documents held in memory, column by column: numbers in typed arrays (NaN for
 * a missing value), strings as codes into a per-field dictionary of distinct values (with their
 * normalized tokens), arrays as lists of such codes. A filter on a string is decided once per
 * distinct value and then read per document through the codes, so a scan of 100,000 documents is a
 * loop over integers. Only the narrow fields are here (the ones `search_documents` holds); the
 * stored documents stay in PostgreSQL and are read by primary key for the page.
 */

/** A distinct string value: its raw text (facets) and normalized tokens (filters). */
export type DictEntry = { raw: string; tokens: string[]; joined: string /** An array element's normalizeElement, once. */; element?: string };

export class Dictionary {
  readonly entries: DictEntry[] = [];
  private readonly index = new Map<string, number>();

  /**
   * The code of a value, its tokens computed once per distinct value: the stored token columns
   * are NULL for most values (storedTokens), and the tokenizer is the same function either way.
   */
  code(raw: string, tokenize: (raw: string) => string[]): number {
    let c = this.index.get(raw);
    if (c === undefined) {
      c = this.entries.length;
      const tokens = tokenize(raw);
      this.entries.push({ raw, tokens, joined: tokens.join(" ") });
      this.index.set(raw, c);
    }
    return c;
  }
}

const noTokens = () => [];
/** An array element's filter entry: its tokens joined (normalizeElement), keyed by that text. */
const elementTokens = (joined: string) => joined.split(" ");

export type NumberColumn = { kind: "number"; field: SearchField; values: Float64Array };
export type BoolColumn = { kind: "bool"; field: SearchField; values: Int8Array };
/** `codes[i]` is -1 when the document has no value. */
export type StringColumn = { kind: "string"; field: SearchField; dict: Dictionary; codes: Int32Array };
/** `raw[i]` (facets) and `elems[i]` (filters: each element's normalized text) are null when missing. */
export type ArrayColumn = {
  kind: "array";
  field: SearchField;
  rawDict: Dictionary;
  elemDict: Dictionary;
  raw: (number[] | null)[];
  elems: (number[] | null)[];
};
export type Column = NumberColumn | BoolColumn | StringColumn | ArrayColumn;

/** Columns with more distinct values than this are filtered by a scan, not bitsets. */
const MAX_BITSET_CODES = 64;

/** The narrow fields: what the memory engine can filter, sort and facet on. */
export const MEMORY_FIELDS: SearchField[] = SEARCH_FIELDS.filter((f) => !f.wide);
const MEMORY_FIELD_NAMES = new Set(MEMORY_FIELDS.map((f) => f.name));
export const isMemoryField = (name: string): boolean => MEMORY_FIELD_NAMES.has(name);

const num = (v: unknown): number => (v === null || v === undefined ? NaN : Number(v));
/** `real` columns: the filters compare in 32 bits (compile-sql.ts), so the stored value is a float32. */
const real = (v: unknown): number => (v === null || v === undefined ? NaN : Math.fround(Number(v)));
const textArray = (v: unknown): string[] | null => (v === null || v === undefined ? null : (v as unknown[]).map((x) => String(x ?? "")));

export class TenantIndex {
  /** Slots: a removed document leaves a hole (`alive` 0) reused by the next new one. */
  size = 0;
  capacity: number;
  alive: Uint8Array;
  ids: string[] = [];
  readonly slotOf = new Map<string, number>();
  private readonly free: number[] = [];
  /** Access columns (never in a user's filter): ids of the broker, the listing's and the property's creators. */
  assignedTo: (string | null)[] = [];
  createdBy: (string | null)[] = [];
  propertyCreatedBy: (string | null)[] = [];
  lat: Float64Array;
  lng: Float64Array;
  /** `created_at` of the document, the final tie-break of every order (newest first). */
  createdAt: Float64Array;
  readonly columns = new Map<string, Column>();
  /**
   * Per low-cardinality column (strings with few distinct values, bools), one bitset of slots per
   * value, built on first use and kept current by `upsert`: a filter on such a column is a few
   * thousand word operations instead of a pass over every document (evaluate.ts).
   */
  private readonly bitsets = new Map<string, Uint32Array[]>();
  /** The documents' full-text vectors (`search_texts.tsv`), for text queries. */
  readonly text = new TextIndex();
  /** The tenant's search version the index reflects (rows written up to it are applied). */
  version = -1;
  /** Bumped on every change, so per-version caches (such as `out_of`) know when to recount. */
  changes = 0;

  constructor(
    readonly tenantId: string,
    capacity = 1024,
  ) {
    this.capacity = capacity;
    this.alive = new Uint8Array(capacity);
    this.lat = new Float64Array(capacity);
    this.lng = new Float64Array(capacity);
    this.createdAt = new Float64Array(capacity);
    for (const f of MEMORY_FIELDS) {
      if (f.type === "string") this.columns.set(f.name, { kind: "string", field: f, dict: new Dictionary(), codes: new Int32Array(capacity).fill(-1) });
      else if (f.type === "string[]")
        this.columns.set(f.name, { kind: "array", field: f, rawDict: new Dictionary(), elemDict: new Dictionary(), raw: [], elems: [] });
      else if (f.type === "bool") this.columns.set(f.name, { kind: "bool", field: f, values: new Int8Array(capacity).fill(-1) });
      else this.columns.set(f.name, { kind: "number", field: f, values: new Float64Array(capacity).fill(NaN) });
    }
  }

  private every: Int32Array = new Int32Array(0);

  /** The slots 0 … n-1 (shared: never write to it). */
  everySlot(n: number): Int32Array {
    if (this.every.length !== n) this.every = Int32Array.from({ length: n }, (_, i) => i);
    return this.every;
  }

  get count(): number {
    return this.slotOf.size;
  }

  column(name: string): Column {
    const c = this.columns.get(name);
    if (!c) throw new Error(`memory search: \`${name}\` is not a narrow search field`);
    return c;
  }

  /** Adds or replaces a document from its `search_documents` row (as the driver returns it). */
  upsert(row: Record<string, unknown>): void {
    const id = String(row.listing_id);
    let i = this.slotOf.get(id);
    if (i === undefined) {
      i = this.free.pop() ?? this.size++;
      if (i >= this.capacity) this.grow(Math.max(this.capacity * 2, i + 1));
      this.slotOf.set(id, i);
      this.ids[i] = id;
    }
    this.alive[i] = 1;
    const tracked = this.bitsets.size > 0;
    if (tracked) this.clearBits(i);
    this.assignedTo[i] = (row.assigned_to_id as string | null) ?? null;
    this.createdBy[i] = (row.created_by_id as string | null) ?? null;
    this.propertyCreatedBy[i] = (row.property_created_by_id as string | null) ?? null;
    this.lat[i] = num(row[LAT_COLUMN]);
    this.lng[i] = num(row[LNG_COLUMN]);
    for (const c of this.columns.values()) {
      const col = columnOf(c.field.name);
      const v = row[col];
      if (c.kind === "number") c.values[i] = c.field.type === "float" ? real(v) : num(v);
      else if (c.kind === "bool") c.values[i] = v === null || v === undefined ? -1 : v === true || v === "t" || v === "true" ? 1 : 0;
      else if (c.kind === "string") {
        c.codes[i] = v === null || v === undefined ? -1 : c.dict.code(String(v), normalizeTokens);
      } else {
        const raw = textArray(v);
        c.raw[i] = raw ? raw.map((r) => c.rawDict.code(r, noTokens)) : null;
        c.elems[i] =
          c.raw[i]?.map((code) => {
            const e = c.rawDict.entries[code];
            return c.elemDict.code((e.element ??= normalizeElement(e.raw)), elementTokens);
          }) ?? null;
      }
    }
    this.createdAt[i] = (this.columns.get("createdAt") as NumberColumn).values[i];
    if (tracked) this.setBits(i);
    this.text.set(i, (row.tsv as string | null | undefined) ?? null);
    this.changes++;
  }

  /**
   * The bitsets of a string column's codes (or a bool column's 0 and 1), or null when the column
   * has too many distinct values to be worth it. A bit may stay set for a removed slot: readers
   * intersect with the slots in scope, which only holds live ones.
   */
  codeBitsets(name: string): Uint32Array[] | null {
    const have = this.bitsets.get(name);
    if (have) return have;
    const col = this.column(name);
    const values = col.kind === "string" ? col.codes : col.kind === "bool" ? col.values : null;
    const codes = col.kind === "string" ? col.dict.entries.length : 2;
    if (!values || codes > MAX_BITSET_CODES) return null;
    const words = Math.ceil(this.capacity / 32);
    const sets = Array.from({ length: codes }, () => new Uint32Array(words));
    for (let i = 0; i < this.size; i++) {
      const c = values[i];
      if (c >= 0) sets[c][i >>> 5] |= 1 << (i & 31);
    }
    this.bitsets.set(name, sets);
    return sets;
  }

  /** Clears slot i from the set of its current value, in every built bitset (before its columns change). */
  private clearBits(i: number): void {
    for (const [name, sets] of this.bitsets) {
      const col = this.column(name);
      const old = col.kind === "string" ? col.codes[i] : (col as BoolColumn).values[i];
      if (old >= 0 && old < sets.length) sets[old][i >>> 5] &= ~(1 << (i & 31));
    }
  }

  /** Sets slot i in the set of its new value (after its columns are written: a new string may add a code). */
  private setBits(i: number): void {
    for (const [name, sets] of this.bitsets) {
      const col = this.column(name);
      const c = col.kind === "string" ? col.codes[i] : (col as BoolColumn).values[i];
      if (c < 0) continue;
      if (c >= sets.length) {
        // A new distinct value: past the limit the column goes back to scans; else one more set.
        if (c >= MAX_BITSET_CODES) {
          this.bitsets.delete(name);
          continue;
        }
        while (sets.length <= c) sets.push(new Uint32Array(Math.ceil(this.capacity / 32)));
      }
      sets[c][i >>> 5] |= 1 << (i & 31);
    }
  }

  remove(id: string): void {
    const i = this.slotOf.get(id);
    if (i === undefined) return;
    this.slotOf.delete(id);
    this.alive[i] = 0;
    this.text.remove(i);
    this.free.push(i);
    this.changes++;
  }

  /** Bytes held by the typed arrays (a lower bound: dictionaries and id strings come on top). */
  typedBytes(): number {
    let n = this.alive.byteLength + this.lat.byteLength + this.lng.byteLength + this.createdAt.byteLength;
    for (const c of this.columns.values()) if (c.kind !== "array") n += (c.kind === "string" ? c.codes : c.values).byteLength;
    return n;
  }

  private grow(capacity: number): void {
    const more = <T extends Float64Array | Int8Array | Int32Array | Uint8Array>(a: T, fill: number): T => {
      const b = new (a.constructor as new (n: number) => T)(capacity);
      b.fill(fill as never);
      b.set(a as never);
      return b;
    };
    this.alive = more(this.alive, 0);
    this.lat = more(this.lat, NaN);
    this.lng = more(this.lng, NaN);
    this.createdAt = more(this.createdAt, NaN);
    for (const c of this.columns.values()) {
      if (c.kind === "string") c.codes = more(c.codes, -1);
      else if (c.kind === "bool") c.values = more(c.values, -1);
      else if (c.kind === "number") c.values = more(c.values, NaN);
    }
    this.capacity = capacity;
    // Bitsets are sized by capacity: rebuilt on their next use.
    this.bitsets.clear();
  }
}
