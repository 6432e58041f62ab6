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
 * The round starts one worker, and every successful claim (or wake-up) sends one more worker to
 * look for the next item: a parked one if any, else a new one while fewer than `parallel` run. A
 * worker that finds nothing while others run parks until a wake-up sends it; with nothing running
 * it ends. Starting all workers at once instead lets most of them end before the first item
 * arrives, leaving one worker to run a burst in series: the agents bench measured first replies
 * queued for seconds that way. A wake-up sends ONE parked worker, not all: waking every parked
 * worker at each queued item and each finished one made 3.6 to 7.3 claims (each an UPDATE with
 * SKIP LOCKED) per execution in the agents bench, most of them finding nothing. A worker whose
 * claim was under way when a wake-up came claims again before it parks (the claim may have read
 * before the new item was committed), so no wake-up is lost.
 * The round ends when nothing is due and nothing runs, or `limit` items were claimed. A cap given
 * as a function may move during the round: workers above it end after their item.
 */
export async function claimPool<T>(o: PoolOptions<T>): Promise<QueueRound> {
  const counts = { claimed: 0, processed: 0, failed: 0 };
  let inFlight = 0;
  /** Wake-ups so far: a worker compares it before and after a claim that found nothing. */
  let wakeUps = 0;
  const parked: (() => void)[] = [];
  const wakeOne = () => parked.shift()?.();
  const workers = new Set<Promise<void>>();
  let alive = 0; // workers started and not yet ended (parked ones included)
  const cap = () => Math.max(1, Math.min(typeof o.parallel === "function" ? o.parallel() : o.parallel, o.limit));
  const startWorker = () => {
    if (alive >= cap()) return;
    alive++;
    const w: Promise<void> = work().finally(() => workers.delete(w));
    workers.add(w);
  };
  /** One more worker looks for work: a parked one, else a new one (within the cap). */
  const sendOne = () => {
    if (parked.length) wakeOne();
    else startWorker();
  };
  const work = async () => {
    try {
      while (counts.claimed < o.limit) {
        // The cap went down: this worker ends after its item. `alive` drops as it returns (a
        // `finally` runs then, not when the promise settles), so workers checking in the same
        // tick never all leave.
        if (alive > cap()) return;
        const before = wakeUps;
        const item = await o.claim();
        if (item === undefined) {
          if (wakeUps !== before) continue; // new work may have been committed after the claim read
          if (inFlight === 0) return;
          await new Promise<void>((r) => parked.push(r));
          continue;
        }
        counts.claimed++;
        inFlight++;
        sendOne(); // there was work: one more worker looks for the next item
        try {
          await o.run(item);
          counts.processed++;
        } catch (err) {
          counts.failed++;
          o.onError(err, item);
        } finally {
          inFlight--;
          // Nothing runs any more: parked workers claim once more and end (each wakes the next).
          if (inFlight === 0) wakeOne();
        }
      }
    } finally {
      alive--;
      // An ending worker hands its wake-up on: a parked worker then looks for work or ends too
      // (the round ends only when all have; one woken above the cap must not swallow the wake-up).
      wakeOne();
    }
  };
  const off = o.subscribe(() => {
    wakeUps++;
    sendOne(); // every worker may be busy: new work gets its own
  });
  try {
    startWorker();
    while (workers.size) await Promise.all([...workers]);
  } finally {
    off();
  }
  return counts;
}
