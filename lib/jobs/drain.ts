/** One round of a claim-and-process queue: how many rows it claimed, processed and failed. */
export type QueueRound = { claimed: number; processed: number; failed: number };

/**
 * Drains a queue claimed with SKIP LOCKED: rounds of `batch` until a round claims fewer than that
 * (what is pending now; a later burst sends its own event), at most 50 rounds a run. `onFailed`
 * hears each round's failures; the answer is the run's totals.
 */
export async function drainQueue(round: (limit: number) => Promise<QueueRound>, batch: number, onFailed: (failed: number) => void) {
  let total = { processed: 0, failed: 0 };
  for (let i = 0; i < 50; i++) {
    const r = await round(batch);
    total = { processed: total.processed + r.processed, failed: total.failed + r.failed };
    if (r.failed) onFailed(r.failed);
    if (r.claimed < batch) break;
  }
  return total;
}
