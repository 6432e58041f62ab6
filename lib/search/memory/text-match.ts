/**
 * Full-text matching and ranking over a tenant's in-memory vectors (text-index.ts), with PostgreSQL's
 * semantics: a document matches `a & b:* & …` when it holds every operand (a prefix operand: any
 * lexeme starting with it) at a position whose weight the operand allows, and its rank is
 * `ts_rank_cd(tsv, query)` with the default weights and no normalization, computed as
 * src/backend/utils/adt/tsrank.c does (covers, their density and noise), in doubles, returned as the
 * `real` PostgreSQL returns. Queries with other operators (`!`, `|`, phrases) are not parsed here:
 * the caller leaves them to PostgreSQL.
 */
import type { SlotList } from "./query-view";
import type { TextIndex } from "./text-index";

/** A query operand: its lexeme, whether it is a prefix (`:*`) and the weights it accepts (bit w for weight w, 3 = A). */
export type TextOperand = { lexeme: string; prefix: boolean; weights: number };

const WEIGHT_BIT: Record<string, number> = { A: 1 << 3, B: 1 << 2, C: 1 << 1, D: 1 << 0 };
const OPERAND = /^'([^'\\]*)'(?::(\*?)([A-D]*))?$/;
/** Operands are bits of an int32 mask; a longer query goes to PostgreSQL. */
const MAX_OPERANDS = 30;

/**
 * The operands of a tsquery as PostgreSQL prints it (`'apart':*ABC & 'moem':ABC`), or null when it
 * is anything but a conjunction of plain operands (or empty: only stop words).
 */
export function parseTsquery(text: string): TextOperand[] | null {
  if (!text.trim()) return null;
  const ops: TextOperand[] = [];
  for (const part of text.split(" & ")) {
    const m = OPERAND.exec(part.trim());
    if (!m) return null;
    const weights = m[3] ? [...m[3]].reduce((b, c) => b | WEIGHT_BIT[c], 0) : 0b1111;
    ops.push({ lexeme: m[1], prefix: m[2] === "*", weights });
  }
  return ops.length <= MAX_OPERANDS ? ops : null;
}

/** tsrank.c's default weights {D, C, B, A}, as the `float4` they are there. */
const WEIGHTS = [0.1, 0.2, 0.4, 1.0].map(Math.fround);
const INV_WEIGHTS = WEIGHTS.map((w) => 1 / w);

export type TextMatches = { matches: SlotList; rank: Float64Array };

/**
 * The candidates (scope and filters already applied, ascending) that match the operands, ascending,
 * with their ranks (`rank[slot]`, NaN elsewhere; `n` slots). Walks whichever is shorter, the
 * candidates or the postings of the operand with the fewest, and checks and ranks each document on
 * its forward record: a narrow filter and a broad word cost only the narrower of the two.
 */
export function textMatches(t: TextIndex, candidates: SlotList, n: number, ops: TextOperand[]): TextMatches {
  const rank = new Float64Array(n).fill(NaN);
  const lexIds = ops.map((op) => {
    if (op.prefix) return t.withPrefix(op.lexeme);
    const id = t.exact(op.lexeme);
    return id === undefined ? [] : [id];
  });
  if (lexIds.some((ids) => !ids.length)) return { matches: new Int32Array(0), rank };
  // The query's lexemes in id order (the order of a document's record), each with its operands' bits.
  const bitsOf = new Map<number, number>();
  lexIds.forEach((ids, i) => {
    ids.forEach((id) => {
      bitsOf.set(id, (bitsOf.get(id) ?? 0) | (1 << i));
    });
  });
  const qids = Int32Array.from([...bitsOf.keys()].sort((x, y) => x - y));
  const qbits = Int32Array.from(qids, (id) => bitsOf.get(id)!);
  const weightOps = [0, 1, 2, 3].map((w) => ops.reduce((b, op, i) => (op.weights & (1 << w) ? b | (1 << i) : b), 0));
  const all = (1 << ops.length) - 1;
  const postings = lexIds.map((ids) => ids.reduce((s, id) => s + t.postings[id].length, 0));
  const driver = postings.indexOf(Math.min(...postings));
  // Past a few lexemes (a short prefix), a table by lexeme id beats a binary search per lexeme.
  let bitsById: Int32Array | null = null;
  if (qids.length > 16) {
    bitsById = new Int32Array(t.lexemes.length);
    qids.forEach((id, x) => {
      bitsById![id] = qbits[x];
    });
  }
  const q: Query = { qids, qbits, bitsById, weightOps, all, doc: new DocRepresentation(t.lexemes), rank, out: [] };
  if (candidates.length <= postings[driver]) {
    rankSlots(t, q, candidates, null);
    return { matches: Int32Array.from(q.out), rank };
  }
  const isCandidate = new Uint8Array(n);
  for (let x = 0; x < candidates.length; x++) isCandidate[candidates[x]] = 1;
  for (const id of lexIds[driver]) rankSlots(t, q, t.postings[id], isCandidate);
  return { matches: Int32Array.from(q.out).sort(), rank };
}

/** The query's lexemes as a document is read against them (see `DocRepresentation.read`). */
type QueryLexemes = { qids: Int32Array; qbits: Int32Array; bitsById: Int32Array | null; weightOps: number[]; all: number };
type Query = QueryLexemes & { doc: DocRepresentation; rank: Float64Array; out: number[] };

/**
 * Checks and ranks each slot (of the candidates, or of a posting list filtered by `isCandidate`,
 * where a slot seen once is marked 2: it can sit in several of the driver's postings). Its own
 * function with one shape of arguments, so the hot loop stays optimized.
 */
function rankSlots(t: TextIndex, q: Query, slots: ArrayLike<number>, isCandidate: Uint8Array | null): void {
  const { doc, rank, out, all } = q;
  for (let x = 0; x < slots.length; x++) {
    const slot = slots[x];
    if (isCandidate) {
      if (isCandidate[slot] !== 1) continue;
      isCandidate[slot] = 2;
    }
    if (!doc.read(t, slot, q)) continue;
    rank[slot] = Math.fround(doc.coverDensity(all));
    out.push(slot);
  }
}

/**
 * tsrank.c's DocRepresentation of one document: the positions where a query operand occurs, in
 * position order, each with the operands it satisfies (one entry per lexeme and position, which is
 * what get_docrep's merge of equal positions of one entry leaves).
 */
class DocRepresentation {
  pos = new Int32Array(64);
  weight = new Int32Array(64);
  bits = new Int32Array(64);
  lex = new Int32Array(64);
  len = 0;
  /** Operand bits found so far in the document being read. */
  seen = 0;

  constructor(private readonly lexemes: string[]) {}

  /**
   * Reads the document's matching positions; false when it lacks an operand (no match). A few
   * query lexemes (`qids`, ascending, with their operand bits `qbits`) are each found by binary
   * search in the document's sorted lexemes; many (a short prefix such as `c:*`) are looked up the
   * other way, each of the document's lexemes in `bitsById`, so the cost stays per document.
   */
  read(t: TextIndex, slot: number, q: QueryLexemes): boolean {
    const a = t.arena;
    const at = t.start[slot];
    if (at < 0) return false;
    const k = a[at];
    const ends = at + 1 + k;
    if (a[ends + k - 1] > this.pos.length) this.grow(a[ends + k - 1]);
    this.len = 0;
    this.seen = 0;
    let lexemesHit = 0;
    if (q.bitsById) {
      for (let j = 0; j < k; j++) {
        const b = q.bitsById[a[at + 1 + j]];
        if (b && this.entries(a, at, k, j, b, q.weightOps)) lexemesHit++;
      }
    } else {
      let lo = at + 1;
      for (let x = 0; x < q.qids.length; x++) {
        const lex = q.qids[x];
        let hi = ends;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (a[mid] < lex) lo = mid + 1;
          else hi = mid;
        }
        if (lo === ends) break;
        if (a[lo] === lex && this.entries(a, at, k, lo - at - 1, q.qbits[x], q.weightOps)) lexemesHit++;
      }
    }
    if (this.seen !== q.all) return false;
    // One lexeme's positions are already in order (a tsvector keeps them sorted and distinct).
    if (lexemesHit > 1) this.sort();
    return true;
  }

  /** Appends the positions of the record's j-th lexeme whose weight an operand in `b` accepts; true if any. */
  private entries(a: Int32Array, at: number, k: number, j: number, b: number, weightOps: number[]): boolean {
    const ends = at + 1 + k;
    const base = ends + k;
    const lex = a[at + 1 + j];
    const before = this.len;
    let m = before;
    for (let q = j ? a[ends + j - 1] : 0, to = a[ends + j]; q < to; q++) {
      const wep = a[base + q];
      const w = wep >>> 14;
      const eb = b & weightOps[w];
      if (!eb) continue;
      this.pos[m] = wep & 0x3fff;
      this.weight[m] = w;
      this.bits[m] = eb;
      this.lex[m] = lex;
      this.seen |= eb;
      m++;
    }
    this.len = m;
    return m > before;
  }

  /** calc_rank_cd with the default weights and normalization 0: the sum over covers of their density. */
  coverDensity(all: number): number {
    const { pos, weight, bits, len } = this;
    let wdoc = 0;
    if (all === 1) {
      // One operand: every entry is a cover of its own (density 1 / invws, no noise), summed in order.
      for (let i = 0; i < len; i++) wdoc += 1 / INV_WEIGHTS[weight[i]];
      return wdoc;
    }
    let extPos = 0;
    for (;;) {
      // Cover(): the next shortest stretch holding every operand; its tail recursion is this loop.
      let p = 0x7fffffff;
      let q = 0;
      let begin = -1;
      let end = -1;
      for (;;) {
        let lastpos = extPos;
        let found = false;
        let acc = 0;
        for (let i = extPos; i < len; i++) {
          acc |= bits[i];
          if (acc === all) {
            if (pos[i] > q) {
              q = pos[i];
              end = lastpos = i;
              found = true;
            }
            break;
          }
        }
        if (!found) return wdoc;
        acc = 0;
        let i = lastpos;
        for (; i >= extPos; i--) {
          acc |= bits[i];
          if (acc === all) {
            if (pos[i] < p) {
              begin = i;
              p = pos[i];
            }
            break;
          }
        }
        if (p <= q) {
          extPos = i + 1;
          break;
        }
        extPos++;
      }
      let invSum = 0;
      for (let i = begin; i <= end; i++) invSum += INV_WEIGHTS[weight[i]];
      const cpos = (end - begin + 1) / invSum;
      let noise = q - p - (end - begin);
      if (noise < 0) noise = Math.trunc((end - begin) / 2);
      wdoc += cpos / (1 + noise);
    }
  }

  /**
   * compareDocR's order: position, then weight, then the lexeme's place in the tsvector (byte
   * order, tsCompareString). Insertion sort: a document has a handful of matching positions.
   */
  private sort(): void {
    const { pos, weight, bits, lex, len } = this;
    for (let i = 1; i < len; i++) {
      const p = pos[i];
      const w = weight[i];
      const b = bits[i];
      const l = lex[i];
      let j = i - 1;
      while (j >= 0 && this.after(pos[j], weight[j], lex[j], p, w, l)) {
        pos[j + 1] = pos[j];
        weight[j + 1] = weight[j];
        bits[j + 1] = bits[j];
        lex[j + 1] = lex[j];
        j--;
      }
      pos[j + 1] = p;
      weight[j + 1] = w;
      bits[j + 1] = b;
      lex[j + 1] = l;
    }
  }

  private after(p1: number, w1: number, l1: number, p2: number, w2: number, l2: number): boolean {
    if (p1 !== p2) return p1 > p2;
    if (w1 !== w2) return w1 > w2;
    if (l1 === l2) return false;
    return Buffer.compare(Buffer.from(this.lexemes[l1]), Buffer.from(this.lexemes[l2])) > 0;
  }

  private grow(n: number): void {
    const size = Math.max(n, this.pos.length * 2);
    this.pos = new Int32Array(size);
    this.weight = new Int32Array(size);
    this.bits = new Int32Array(size);
    this.lex = new Int32Array(size);
  }
}
