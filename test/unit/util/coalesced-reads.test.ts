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
  it("reads what one turn brings together, then together, once per distinct key, what arrived while it was in flight", async () => {
    const s = store({ a: "A", b: "B", c: "C" });
    const read = coalescedReads(s.loadMany);
    const first = [read("a"), read("b")];
    expect(s.calls).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(s.calls).toEqual([["a", "b"]]);
    const later = [read("b"), read("c"), read("b"), read("zz")];
    await s.release();
    expect(await Promise.all(first)).toEqual(["A", "B"]);
    await s.release();
    expect(await Promise.all(later)).toEqual(["B", "C", "B", undefined]);
    expect(s.calls).toEqual([
      ["a", "b"],
      ["b", "c", "zz"],
    ]);
    // Idle again: the next read goes alone, at the end of its turn.
    const next = read("c");
    await s.release();
    expect(await next).toBe("C");
    expect(s.calls).toHaveLength(3);
  });

  it("fails only the reads of a failed statement; the next ones read again", async () => {
    const s = store({ a: "A", b: "B" });
    const read = coalescedReads(s.loadMany);
    s.failNext();
    const failed = read("a");
    failed.catch(() => {});
    await new Promise((r) => setImmediate(r));
    const after = read("b");
    await s.release();
    await expect(failed).rejects.toThrow("store down");
    await s.release();
    expect(await after).toBe("B");
  });
});
