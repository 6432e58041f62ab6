import { processGlobal } from "../util/process-global";
/**
 * The process's request lifecycle, for graceful shutdown: how many API requests are in flight and
 * whether the server is draining. One per process (`processGlobal`) so every bundle sees one state.
 */
type State = { inFlight: number; draining: boolean; idle: Set<() => void> };
const state = processGlobal<State>("lifecycle", () => ({ inFlight: 0, draining: false, idle: new Set() }));

export function isDraining(): boolean {
  return state.draining;
}

export function startDraining(): void {
  state.draining = true;
}

/** Tests reuse one process for several servers' lives. */
export function resetLifecycleForTests(): void {
  state.draining = false;
}

/** Counts a request for its whole life (the returned function ends it). */
export function trackRequest(): () => void {
  state.inFlight++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    state.inFlight--;
    if (state.inFlight === 0) for (const fn of state.idle) fn();
  };
}

export function inFlightRequests(): number {
  return state.inFlight;
}

/** Resolves when no request is in flight, or after `timeoutMs` (then false). */
export function waitForIdle(timeoutMs: number): Promise<boolean> {
  if (state.inFlight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      state.idle.delete(onIdle);
      resolve(ok);
    };
    const onIdle = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    state.idle.add(onIdle);
  });
}
