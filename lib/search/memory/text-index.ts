/**
 * A tenant's full-text vectors held in memory: PostgreSQL's own `tsvector` of each document (read as
 * text, so the lexemes are exactly what `to_tsvector('pt_unaccent', …)` produced at write time),
 * kept as an inverted index (lexeme → documents) for finding matches and a forward record per
 * document (its lexemes with their positions and weights) for ranking them like `ts_rank_cd`.
 *
 * Forward records live in one growing arena of int32, laid out per document as
 * `[k, lexId × k, end × k, position …]` where lexeme j's positions are `position[end[j-1] .. end[j])`
 * and a position is PostgreSQL's 16-bit `WordEntryPos` (position in the low 14 bits, weight in the
 * top 2: 3 = A … 0 = D). A rewritten document appends a new record; the old one becomes garbage,
 * reclaimed (with the postings) once it is half the arena.
 *
 * Postings only grow: the invariant is "every document holding lexeme L is in postings[L]", so a
 * posting may name a document that no longer holds L (or name it twice); readers check the forward
 * record, which is always current.
 */
export class TextIndex {
  private readonly idOf = new Map<string, number>();
  readonly lexemes: string[] = [];
  postings: number[][] = [];
  /** Lexeme ids in string order (prefix ranges); lexemes added since the last sort are in `unsorted`. */
  private sorted: number[] = [];
  private unsorted: number[] = [];
  arena = new Int32Array(1 << 16);
  private used = 0;
  private garbage = 0;
  private compactions = 0;
  /** Per slot: the offset of its forward record, or -1. */
  start = new Int32Array(1024).fill(-1);

  /** Replaces a document's vector (`tsv` as PostgreSQL prints a tsvector; null: no text). */
  set(slot: number, tsv: string | null): void {
    if (slot >= this.start.length) {
      const grown = new Int32Array(Math.max(this.start.length * 2, slot + 1)).fill(-1);
      grown.set(this.start);
      this.start = grown;
    }
    const entries = tsv ? parseTsvector(tsv) : [];
    const old = this.lexIdsOf(slot);
    this.drop(slot);
    if (!entries.length) return;
    const ids = entries.map(([lexeme]) => this.lexId(lexeme));
    const order = ids.map((_, j) => j).sort((a, b) => ids[a] - ids[b]);
    const k = entries.length;
    const npos = entries.reduce((n, [, p]) => n + p.length, 0);
    const compactions = this.compactions;
    const at = this.reserve(1 + 2 * k + npos);
    // A compaction rebuilt the postings without this slot (dropped above): it goes back into all of them.
    if (this.compactions !== compactions) old.clear();
    const a = this.arena;
    a[at] = k;
    let p = at + 1 + 2 * k;
    const posBase = p;
    order.forEach((j, r) => {
      a[at + 1 + r] = ids[j];
      for (const wep of entries[j][1]) a[p++] = wep;
      a[at + 1 + k + r] = p - posBase;
    });
    this.start[slot] = at;
    for (const id of ids) if (!old.has(id)) this.postings[id].push(slot);
  }

  /** Forgets a document's vector (its postings stay, and are skipped by readers). */
  remove(slot: number): void {
    if (slot < this.start.length) this.drop(slot);
  }

  /** The lexeme's id, or undefined when no document has ever held it. */
  exact(lexeme: string): number | undefined {
    return this.idOf.get(lexeme);
  }

  /** Ids of every lexeme that starts with `prefix` (PostgreSQL's `:*`). */
  withPrefix(prefix: string): number[] {
    if (this.unsorted.length > 1024 || (this.sorted.length === 0 && this.unsorted.length)) this.sortLexemes();
    const lex = this.lexemes;
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lex[this.sorted[mid]] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < this.sorted.length && lex[this.sorted[i]].startsWith(prefix); i++) out.push(this.sorted[i]);
    for (const id of this.unsorted) if (lex[id].startsWith(prefix)) out.push(id);
    return out;
  }

  private lexId(lexeme: string): number {
    let id = this.idOf.get(lexeme);
    if (id === undefined) {
      id = this.lexemes.length;
      this.lexemes.push(lexeme);
      this.postings.push([]);
      this.idOf.set(lexeme, id);
      this.unsorted.push(id);
    }
    return id;
  }

  private sortLexemes(): void {
    const lex = this.lexemes;
    this.sorted = this.sorted.concat(this.unsorted).sort((a, b) => (lex[a] < lex[b] ? -1 : lex[a] > lex[b] ? 1 : 0));
    this.unsorted = [];
  }

  private lexIdsOf(slot: number): Set<number> {
    const at = slot < this.start.length ? this.start[slot] : -1;
    if (at < 0) return new Set();
    const k = this.arena[at];
    return new Set(this.arena.subarray(at + 1, at + 1 + k));
  }

  private drop(slot: number): void {
    const at = this.start[slot];
    if (at < 0) return;
    const k = this.arena[at];
    this.garbage += 1 + 2 * k + (k ? this.arena[at + 2 * k] : 0);
    this.start[slot] = -1;
  }

  private reserve(n: number): number {
    if (this.garbage > 1 << 20 && this.garbage * 2 > this.used) this.compact();
    if (this.used + n > this.arena.length) {
      const grown = new Int32Array(Math.max(this.arena.length * 2, this.used + n));
      grown.set(this.arena.subarray(0, this.used));
      this.arena = grown;
    }
    const at = this.used;
    this.used += n;
    return at;
  }

  /** Copies the live records into a fresh arena and rebuilds the postings from them (no stale entries). */
  private compact(): void {
    const old = this.arena;
    const fresh = new Int32Array(Math.max(1 << 16, (this.used - this.garbage) * 2));
    let used = 0;
    this.postings = this.lexemes.map(() => []);
    for (let slot = 0; slot < this.start.length; slot++) {
      const at = this.start[slot];
      if (at < 0) continue;
      const k = old[at];
      const len = 1 + 2 * k + (k ? old[at + 2 * k] : 0);
      fresh.set(old.subarray(at, at + len), used);
      this.start[slot] = used;
      for (let j = 0; j < k; j++) this.postings[old[at + 1 + j]].push(slot);
      used += len;
    }
    this.arena = fresh;
    this.used = used;
    this.garbage = 0;
    this.compactions++;
  }
}

const WEIGHT_OF: Record<string, number> = { A: 3, B: 2, C: 1, D: 0 };

/**
 * A tsvector's text form (`'apart':1A,35 'bel':12B 'x'`) as lexemes with their `WordEntryPos`
 * values. Quotes inside a lexeme are doubled and backslashes escape (tsvectorout); a lexeme
 * without positions has none here.
 */
export function parseTsvector(text: string): [string, number[]][] {
  const out: [string, number[]][] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && text[i] === " ") i++;
    if (i >= n) break;
    if (text[i] !== "'") throw new Error(`tsvector: a lexeme must start with a quote at ${i}`);
    i++;
    let lexeme = "";
    for (;;) {
      if (i >= n) throw new Error("tsvector: unterminated lexeme");
      const c = text[i];
      if (c === "\\") {
        lexeme += text[i + 1];
        i += 2;
      } else if (c === "'") {
        if (text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else {
          i++;
          break;
        }
      } else {
        lexeme += c;
        i++;
      }
    }
    const positions: number[] = [];
    if (text[i] === ":") {
      i++;
      for (;;) {
        let pos = 0;
        while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) pos = pos * 10 + text.charCodeAt(i++) - 48;
        const w = WEIGHT_OF[text[i]];
        if (w !== undefined) i++;
        positions.push(pos | ((w ?? 0) << 14));
        if (text[i] !== ",") break;
        i++;
      }
    }
    out.push([lexeme, positions]);
  }
  return out;
}
