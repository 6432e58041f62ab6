import type { QueueRound } from "./drain";

type PoolOptions<T> = {
  /** Most items running at once; a function is asked again at each claim (the cap may move). */
  parallel: number | (() => number);
  /** Most items claimed in this round. */
  limit: number;
  /** Claims one item (SKIP LOCKED), or nothing when none is due. */
  claim: () => Promise<T | undefined>;
  run: (item: T) => Promise<void>;
  onError: (err: unknown, item: T) => void;
  /** Calls `wake` when new work may be due (an event of this process); answers an unsubscribe. */
  subscribe: (wake: () => void) => () => void;
};

/**
 * One round of a queue whose items are slow (a model call) but claimed one at a time: up to
 * `parallel` workers each claim an item, run it and claim the next.
 *
 * The round starts one worker, and every successful claim (or wake-up) starts another while fewer
 * than `parallel` run. A worker that finds nothing while others run waits for a wake-up (new work
 * queued, or another item finished) and claims again; with nothing running it ends. Starting all
 * workers at once instead lets most of them end before the first item arrives, leaving one worker
 * to run a burst in series: the agents bench measured first replies queued for seconds that way.
 * The round ends when nothing is due and nothing runs, or `limit` items were claimed. A cap given
 * as a function may move during the round: workers above it end after their item.
 */
export async function claimPool<T>(o: PoolOptions<T>): Promise<QueueRound> {
  const counts = { claimed: 0, processed: 0, failed: 0 };
  let inFlight = 0;
  let wake: () => void = () => {};
  let woken = new Promise<void>((r) => {
    wake = r;
  });
  const poke = () => {
    const w = wake;
    woken = new Promise<void>((r) => {
      wake = r;
    });
    w();
  };
  const workers = new Set<Promise<void>>();
  let alive = 0; // workers started and not yet ended
  const cap = () => Math.max(1, Math.min(typeof o.parallel === "function" ? o.parallel() : o.parallel, o.limit));
  const startWorker = () => {
    if (alive >= cap()) return;
    alive++;
    const w: Promise<void> = work().finally(() => workers.delete(w));
    workers.add(w);
  };
  const work = async () => {
    try {
      while (counts.claimed < o.limit) {
        // The cap went down: this worker ends after its item. `alive` drops as it returns (a
        // `finally` runs then, not when the promise settles), so workers checking in the same
        // tick never all leave.
        if (alive > cap()) return;
        const next = woken;
        const item = await o.claim();
        if (item === undefined) {
          if (inFlight === 0) return;
          await next;
          continue;
        }
        counts.claimed++;
        inFlight++;
        startWorker(); // there was work: one more worker looks for the next item
        try {
          await o.run(item);
          counts.processed++;
        } catch (err) {
          counts.failed++;
          o.onError(err, item);
        } finally {
          inFlight--;
          poke();
        }
      }
    } finally {
      alive--;
    }
  };
  const off = o.subscribe(() => {
    startWorker(); // every worker may be busy: new work gets its own
    poke();
  });
  try {
    startWorker();
    while (workers.size) await Promise.all([...workers]);
  } finally {
    off();
  }
  return counts;
}
