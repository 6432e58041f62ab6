import { describe, expect, it } from "vitest";
import { coalescedReads } from "../../../lib/util/coalesced-reads";

/** A store whose reads can be held open, recording the keys of each `loadMany`. */
function store(rows: Record<string, string>) {
  const calls: string[][] = [];
  const held: (() => void)[] = [];
  let failNext = false;
  const loadMany = async (keys: string[]) => {
    calls.push(keys);
    await new Promise<void>((ok) => held.push(ok));
    if (failNext) {
      failNext = false;
      throw new Error("store down");
    }
    return new Map(keys.filter((k) => k in rows).map((k) => [k, rows[k]]));
  };
  const release = async () => {
    while (!held.length) await new Promise((r) => setTimeout(r, 1));
    held.shift()!();
  };
  return { loadMany, calls, release, failNext: () => (failNext = true) };
}

describe("coalescedReads", () => {
  it("reads at once when idle, then reads together, once per distinct key, what arrived meanwhile", async () => {
    const s = store({ a: "A", b: "B", c: "C" });
    const read = coalescedReads(s.loadMany);
    const first = read("a");
    const later = [read("b"), read("c"), read("b"), read("zz")];
    expect(s.calls).toEqual([["a"]]);
    await s.release();
    expect(await first).toBe("A");
    await s.release();
    expect(await Promise.all(later)).toEqual(["B", "C", "B", undefined]);
    expect(s.calls).toEqual([["a"], ["b", "c", "zz"]]);
    // Idle again: the next read goes alone, at once.
    const next = read("c");
    expect(s.calls).toHaveLength(3);
    await s.release();
    expect(await next).toBe("C");
  });

  it("fails only the reads of a failed statement; the next ones read again", async () => {
    const s = store({ a: "A", b: "B" });
    const read = coalescedReads(s.loadMany);
    s.failNext();
    const failed = read("a");
    const after = read("b");
    await s.release();
    await expect(failed).rejects.toThrow("store down");
    await s.release();
    expect(await after).toBe("B");
  });
});
