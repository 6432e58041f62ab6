import type { FacetCount } from "../engine";
import type { QueryView, SlotList } from "./query-view";

/**
 * Facet counts over every match, as `../postgres/facets-sql.ts` computes them: values as text
 * (floats the way PostgreSQL turns a `real` into numeric text, bools `true`/`false`), ordered by
 * count desc, then shorter, then greater; `string[]` fields count each element; numeric fields
 * carry min, max, sum and avg of the matches that have a value (a hidden price has none).
 */
export function memoryFacets(view: QueryView, matches: SlotList, fields: string[], max: number): FacetCount[] {
  return fields.map((name) => {
    const col = view.ix.column(name);
    const counts = new Map<string, number>();
    const add = (v: string) => counts.set(v, (counts.get(v) ?? 0) + 1);
    /** Numbers and bools: one row per value (strings are merged by their text in `counts`). */
    const rows: [string, number][] = [];
    let stats: FacetCount["stats"] = { total_values: 0 };
    if (col.kind === "string") {
      const byCode = new Int32Array(col.dict.entries.length);
      for (let x = 0; x < matches.length; x++) {
        const c = col.codes[matches[x]];
        if (c >= 0) byCode[c]++;
      }
      // Several dictionary entries can share a raw value (same text, other tokens): add them up.
      byCode.forEach((c, code) => {
        c && counts.set(col.dict.entries[code].raw, (counts.get(col.dict.entries[code].raw) ?? 0) + c);
      });
    } else if (col.kind === "array") {
      for (let x = 0; x < matches.length; x++) {
        const raw = col.raw[matches[x]];
        if (raw) for (const c of raw) add(col.rawDict.entries[c].raw);
      }
    } else {
      const values = view.number(name);
      const float = col.field.type === "float";
      const text = col.kind === "bool" ? (x: number) => (x ? "true" : "false") : float ? numericText : (x: number) => String(x);
      // Grouped by value, then written as text (two floats can print alike and stay two rows, as in SQL).
      const byValue = new Map<number, number>();
      let [min, mx, sum, n] = [Infinity, -Infinity, 0, 0];
      // sum(real) is a real in PostgreSQL: accumulate in 32 bits like it does (avg accumulates in 64).
      let sum32 = 0;
      for (let j = 0; j < matches.length; j++) {
        const x = values[matches[j]];
        if (Number.isNaN(x)) continue;
        byValue.set(x, (byValue.get(x) ?? 0) + 1);
        if (x < min) min = x;
        if (x > mx) mx = x;
        sum += x;
        sum32 = Math.fround(sum32 + x);
        n++;
      }
      for (const [x, c] of byValue) rows.push([text(x), c]);
      if (col.kind === "number" && n > 0) {
        const out = float ? shortestFloat32 : (x: number) => x;
        stats = { total_values: 0, min: out(min), max: out(mx), sum: float ? shortestFloat32(sum32) : sum, avg: sum / n };
      }
    }
    const all = rows.length ? rows : [...counts.entries()];
    // count desc, then fewer characters, then the greater in byte order (facets-sql.ts, collation C).
    const ranked = all.sort((a, b) => b[1] - a[1] || chars(a[0]) - chars(b[0]) || byteOrder(b[0], a[0]));
    return {
      field_name: name,
      sampled: false as const,
      counts: ranked.slice(0, max).map(([value, count]) => ({ count, highlighted: value, value })),
      // SQL counts the distinct values among the rows it keeps: none when no value is asked for.
      stats: { ...stats, total_values: max > 0 ? all.length : 0 },
    };
  });
}

/**
 * `trim_scale(x::numeric)::text` for a `real` x: PostgreSQL converts a real to numeric through its
 * 6 significant digits (FLT_DIG), then the text has no exponent and no trailing zeros.
 */
export function numericText(x: number): string {
  let y = Number(x.toPrecision(6));
  // C's `%.6g` rounds an exact tie to even; JavaScript's toPrecision rounds it away from zero.
  const step = 10 ** (Math.floor(Math.log10(Math.abs(x))) - 5);
  if (x !== 0 && Math.abs(Math.abs(x - y) * 2 - step) < step * 1e-9 && Math.round(Math.abs(y) / step) % 2 === 1) {
    y = Number((y - Math.sign(x) * step).toPrecision(6));
  }
  const s = String(y === 0 ? 0 : y);
  return /e/i.test(s) ? y.toFixed(20).replace(/\.?0+$/, "") : s;
}

/** A float32 as PostgreSQL prints a `real`: the shortest decimal that reads back as the same float32. */
export function shortestFloat32(x: number): number {
  for (let p = 1; p <= 9; p++) {
    const y = Number(x.toPrecision(p));
    if (Math.fround(y) === x) return y;
  }
  return x;
}

/** Characters as PostgreSQL's `length` counts them (code points, not UTF-16 units). */
const chars = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** Byte order of UTF-8 (collation C), which is code point order. */
function byteOrder(a: string, b: string): number {
  if (a === b) return 0;
  const [x, y] = [[...a], [...b]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d) return d;
  }
  return x.length - y.length;
}
