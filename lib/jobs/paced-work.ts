import { performance } from "node:perf_hooks";
import { processGlobal } from "../util/process-global";

/**
 * Work with a pace to keep (event delivery, lead processing) and work that can wait (agent
 * executions) share one process: its event loop and its database pool. Lead processing is a chain
 * of round trips in series, so every callback queued ahead of its own (an agent's model answer, a
 * gateway read, a claim) adds to each of its waits: 200 executions beside 400 leads doubled their
 * time with the process's CPU below one core (docs/decisions.md, "Agents yield to paced work").
 *
 * Paced jobs run inside `asPacedWork` (`defineJob`'s `paced: true`), and work that can wait calls
 * `yieldToPacedWork(maxMs)` before each of its steps: it goes on at once when no paced run is under
 * way in this process, else when the last one ends, and after `maxMs` at the latest, so it is
 * delayed, never starved. Process-wide (`processGlobal`): the runners and every bundle see one gate.
 */
const g = processGlobal("paced-work-gate", () => ({ running: 0, waiters: new Set<() => void>() }));

/**
 * A paced run counts once it has lasted this long: a delivery run that finds nothing due (every
 * event write wakes one, an agent's own events included) ends within a few milliseconds and holds
 * nothing back, so agents do not throttle themselves through the events they write.
 */
export const PACED_AFTER_MS = 25;

export async function asPacedWork<T>(fn: () => Promise<T>, afterMs = PACED_AFTER_MS): Promise<T> {
  let counted = false;
  const count = () => {
    counted = true;
    g.running++;
  };
  const timer = afterMs > 0 ? setTimeout(count, afterMs) : undefined;
  if (!timer) count();
  try {
    return await fn();
  } finally {
    clearTimeout(timer);
    if (counted && --g.running === 0) {
      const waiting = [...g.waiters];
      g.waiters.clear();
      for (const go of waiting) go();
    }
  }
}

/** Whether a paced job's run is under way in this process. */
export const pacedWorkRunning = (): boolean => g.running > 0;

/**
 * Resolves at once when no paced work runs, else when it has all ended or after `maxMs`
 * (whichever comes first), with the milliseconds waited.
 */
export function yieldToPacedWork(maxMs: number): Promise<number> {
  if (g.running === 0 || maxMs <= 0) return Promise.resolve(0);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const go = () => {
      clearTimeout(timer);
      g.waiters.delete(go);
      resolve(performance.now() - t0);
    };
    const timer = setTimeout(go, maxMs);
    g.waiters.add(go);
  });
}
