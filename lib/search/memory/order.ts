import type { SortKey } from "../engine";
import { haversine } from "./geo";
import type { QueryView, SlotList } from "./query-view";
import { shortestFloat32 } from "./facets";

/** Up to this many rows an insertion buffer orders the page; beyond, one sort of all matches. */
const BUFFERED = 256;

/** A page row as the PostgreSQL engine returns it (ids, rank, distance). */
export type PageRow = { listing_id: string; tenant_id: string; rank: number | null; geo_m: number | null };

/**
 * The matches in the order of `../postgres/sort-sql.ts`: each key with missing values last in both
 * directions, then newest first, then the greater id; only the first `offset + limit` are ordered
 * (a bounded insertion buffer), so a page of 20 out of 40,000 matches costs one pass.
 * Relevance keys order by `rank` (`ts_rank_cd` as a float32, NaN off the matches; ties without text).
 */
export function pageOf(view: QueryView, matches: SlotList, keys: SortKey[], offset: number, limit: number, rank: Float64Array | null = null): PageRow[] {
  const { ix } = view;
  const cols: { values: Float64Array; desc: boolean }[] = [];
  let geo: Float64Array | null = null;
  for (const k of keys) {
    if (k.kind === "text_match") {
      if (rank) cols.push({ values: rank, desc: k.dir === "desc" });
      continue;
    }
    if (k.kind === "field") cols.push({ values: view.number(k.field), desc: k.dir === "desc" });
    else {
      const d = new Float64Array(view.n);
      d.fill(NaN);
      for (let x = 0; x < matches.length; x++) {
        const i = matches[x];
        d[i] = haversine(k.lat, k.lng, ix.lat[i], ix.lng[i], false);
      }
      cols.push({ values: d, desc: k.dir === "desc" });
      geo ??= d;
    }
  }
  cols.push({ values: ix.createdAt, desc: true });
  const ids = ix.ids;
  const cmp = (a: number, b: number): number => {
    for (const c of cols) {
      const x = c.values[a];
      const y = c.values[b];
      if (x === y) continue;
      // Missing values last, whatever the direction (NaN is missing; two of them tie).
      if (Number.isNaN(x)) {
        if (Number.isNaN(y)) continue;
        return 1;
      }
      if (Number.isNaN(y)) return -1;
      return x < y !== c.desc ? -1 : 1;
    }
    return ids[a] < ids[b] ? 1 : ids[a] > ids[b] ? -1 : 0;
  };
  const want = offset + limit;
  let top: number[] = [];
  if (want > BUFFERED) {
    // A deep page: one sort of all matches (an insertion buffer this long would be quadratic).
    const all = Array.from(matches);
    if (offset >= all.length) return [];
    top = all.sort(cmp).slice(0, want);
  } else if (want > 0) {
    for (let x = 0; x < matches.length; x++) {
      const i = matches[x];
      if (top.length === want && cmp(i, top[want - 1]) >= 0) continue;
      let lo = 0;
      let hi = top.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cmp(i, top[mid]) < 0) hi = mid;
        else lo = mid + 1;
      }
      top.splice(lo, 0, i);
      if (top.length > want) top.pop();
    }
  }
  top = top.slice(offset);
  return top.map((i) => ({
    listing_id: ids[i],
    tenant_id: ix.tenantId,
    rank: rank ? shortestFloat32(rank[i]) : null,
    geo_m: geo && !Number.isNaN(geo[i]) ? geo[i] : null,
  }));
}
