import { describe, expect, it } from "vitest";
import { claimPool } from "../../../lib/jobs/claim-pool";

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** A queue whose claims take `claimMs` (a round trip) and whose items run until released. */
function fakeQueue(claimMs: (n: number) => number) {
  const due: string[] = [];
  const running = new Set<string>();
  const releases = new Map<string, () => void>();
  const order: string[] = [];
  let claims = 0;
  let empty = 0;
  let maxRunning = 0;
  let wake: () => void = () => {};
  return {
    due,
    running,
    order,
    get maxRunning() {
      return maxRunning;
    },
    /** Claims that found nothing. */
    get empty() {
      return empty;
    },
    release: (id: string) => releases.get(id)?.(),
    queue(...ids: string[]) {
      due.push(...ids);
      wake();
    },
    options: {
      parallel: 4,
      limit: 100,
      // The row is locked when the query runs and returned when its answer arrives.
      claim: async () => {
        const item = due.shift();
        if (item === undefined) empty++;
        await tick(claimMs(++claims));
        return item;
      },
      run: (id: string) =>
        new Promise<void>((resolve) => {
          running.add(id);
          order.push(id);
          maxRunning = Math.max(maxRunning, running.size);
          releases.set(id, () => {
            running.delete(id);
            resolve();
          });
        }),
      onError: () => {},
      subscribe: (w: () => void) => {
        wake = w;
        return () => {
          wake = () => {};
        };
      },
    },
  };
}

describe("claimPool", () => {
  it("runs work queued while an item runs side by side, not after it", async () => {
    // The first claim is the slow one: the bug this guards against let the other workers find
    // nothing and end before it returned, leaving one worker for the whole round.
    const q = fakeQueue((n) => (n === 1 ? 20 : 0));
    q.due.push("a");
    const round = claimPool(q.options);
    while (!q.running.has("a")) await tick(1);
    q.queue("b", "c");
    for (let i = 0; i < 50 && q.running.size < 3; i++) await tick(1);
    expect([...q.running].sort()).toEqual(["a", "b", "c"]);
    for (const id of ["a", "b", "c"]) q.release(id);
    expect(await round).toEqual({ claimed: 3, processed: 3, failed: 0 });
  });

  it("never runs more than `parallel` at once, and runs the rest as slots free", async () => {
    const q = fakeQueue(() => 0);
    q.due.push("a", "b", "c", "d", "e", "f");
    const round = claimPool(q.options);
    for (let i = 0; i < 50 && q.running.size < 4; i++) await tick(1);
    await tick(5);
    expect(q.running.size).toBe(4);
    q.release("a");
    for (let i = 0; i < 50 && !q.running.has("e"); i++) await tick(1);
    expect(q.running.has("e")).toBe(true);
    for (const id of ["b", "c", "d", "e"]) q.release(id);
    for (let i = 0; i < 50 && !q.running.has("f"); i++) await tick(1);
    q.release("f");
    expect(await round).toEqual({ claimed: 6, processed: 6, failed: 0 });
    expect(q.maxRunning).toBe(4);
    expect(q.order).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("ends when nothing is due and nothing runs; counts failures", async () => {
    const q = fakeQueue(() => 0);
    expect(await claimPool(q.options)).toEqual({ claimed: 0, processed: 0, failed: 0 });
    const errors: unknown[] = [];
    q.due.push("ok", "bad", "ok2");
    const r = await claimPool({
      ...q.options,
      run: async (id: string) => {
        if (id === "bad") throw new Error("boom");
      },
      onError: (err) => errors.push(err),
    });
    expect(r).toEqual({ claimed: 3, processed: 2, failed: 1 });
    expect(errors).toEqual([new Error("boom")]);
  });

  it("follows a cap that moves: workers above a lowered cap end after their item", async () => {
    const q = fakeQueue(() => 0);
    let cap = 3;
    q.due.push("a", "b", "c", "d", "e", "f");
    const round = claimPool({ ...q.options, parallel: () => cap });
    for (let i = 0; i < 50 && q.running.size < 3; i++) await tick(1);
    expect([...q.running].sort()).toEqual(["a", "b", "c"]);
    cap = 1;
    for (const id of ["a", "b", "c"]) q.release(id);
    for (let i = 0; i < 50 && !q.running.has("d"); i++) await tick(1);
    await tick(5);
    expect([...q.running]).toEqual(["d"]);
    q.release("d");
    for (let i = 0; i < 50 && !q.running.has("e"); i++) await tick(1);
    await tick(5);
    expect([...q.running]).toEqual(["e"]);
    cap = 3; // raised again: the next claim starts more workers
    q.release("e");
    for (let i = 0; i < 50 && !q.running.has("f"); i++) await tick(1);
    q.release("f");
    expect(await round).toEqual({ claimed: 6, processed: 6, failed: 0 });
  });

  it("sends one worker per wake-up, not every parked one: few claims find nothing", async () => {
    // Items arrive one at a time while earlier ones run (chats of the agents bench): waking every
    // parked worker at each arrival and each end made most claims find nothing.
    const q = fakeQueue(() => 1);
    const round = claimPool({ ...q.options, parallel: 32 });
    const ids = Array.from({ length: 40 }, (_, i) => `i${i}`);
    for (const [n, id] of ids.entries()) {
      q.queue(id);
      await tick(2);
      if (n >= 6) q.release(ids[n - 6]); // about six run at a time
    }
    for (let i = 0; i < 100 && q.order.length < ids.length; i++) await tick(1);
    for (const id of ids) q.release(id);
    expect(await round).toEqual({ claimed: 40, processed: 40, failed: 0 });
    expect(q.order).toEqual(ids);
    // Per item: the look after its claim, its worker's next claim when it ends, a claim that was
    // under way when it arrived; and each parked worker's last claim at the round's end. Waking
    // every parked worker made about 20 per item here (799 in all).
    expect(q.empty).toBeLessThanOrEqual(4 * ids.length + 32);
  });
});
