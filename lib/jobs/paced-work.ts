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
const g = processGlobal("paced-work-gate", () => ({
  running: 0,
  waiters: new Set<() => void>(),
  /** Set while paced work has just ended: the waiters go when it fires. */
  release: undefined as NodeJS.Timeout | undefined,
}));

/**
 * A paced run counts once it has lasted this long: a delivery run that finds nothing due (every
 * event write wakes one, an agent's own events included) ends within a few milliseconds and holds
 * nothing back, so agents do not throttle themselves through the events they write.
 */
export const PACED_AFTER_MS = 25;

/**
 * Paced work counts as ended once none has run for this long. Lead processing is run after run
 * (a run ends when a batch comes back short and the next lead's event starts the next), and
 * delivery too: without this, every gap between two runs let all the waiting work go at once, and
 * a burst of leads had agents' work running through it (measured: 13 of 200 executions started).
 */
export const PACED_GRACE_MS = 100;

/**
 * The longest work that can wait yields to paced work at one time (before an agent's step, or a
 * round of chats' inbound messages): a burst of leads goes first, and what waited is late by
 * seconds, never lost.
 */
export const PACED_YIELD_MS = 10_000;

function ended() {
  clearTimeout(g.release);
  g.release = setTimeout(() => {
    g.release = undefined;
    if (g.running > 0) return;
    const waiting = [...g.waiters];
    g.waiters.clear();
    for (const go of waiting) go();
  }, PACED_GRACE_MS);
  g.release.unref?.();
}

/**
 * Marks paced work as under way from now (counted after `afterMs`) until the answer is called.
 * For a job that is paced only when it finds work (delivery: most runs find nothing due).
 */
export function enterPacedWork(afterMs = PACED_AFTER_MS): () => void {
  let counted = false;
  let left = false;
  const count = () => {
    counted = true;
    g.running++;
    clearTimeout(g.release);
    g.release = undefined;
  };
  const timer = afterMs > 0 ? setTimeout(count, afterMs) : undefined;
  if (!timer) count();
  return () => {
    if (left) return;
    left = true;
    clearTimeout(timer);
    if (counted && --g.running === 0) ended();
  };
}

export async function asPacedWork<T>(fn: () => Promise<T>, afterMs = PACED_AFTER_MS): Promise<T> {
  const leave = enterPacedWork(afterMs);
  try {
    return await fn();
  } finally {
    leave();
  }
}

/** Whether a paced job's run is under way in this process (or one ended less than `PACED_GRACE_MS` ago). */
export const pacedWorkRunning = (): boolean => g.running > 0 || g.release !== undefined;

/**
 * Resolves at once when no paced work runs, else when it has all ended (none for
 * `PACED_GRACE_MS`) or after `maxMs`, whichever comes first, with the milliseconds waited.
 */
export function yieldToPacedWork(maxMs: number): Promise<number> {
  if (!pacedWorkRunning() || maxMs <= 0) return Promise.resolve(0);
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
