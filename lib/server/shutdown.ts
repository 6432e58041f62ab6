import { closeDb } from "../../db/client";
import { settleAfterCommit } from "../../db/transaction";
import { settleAccesses } from "../share/record-access";
import { logger } from "../log/logger";
import { inFlightRequests, startDraining, waitForIdle } from "./lifecycle";
import { runnerSlot } from "../jobs/runner-slot";

export type ShutdownDeps = {
  timeoutMs: number;
  stopRunner?: () => Promise<void>;
  closeDb?: () => Promise<void>;
  exit?: (code: number) => void;
};

/**
 * Graceful stop (SIGTERM from an orchestrator, Ctrl-C): new API requests get 503 with Retry-After
 * (readiness already says not ready), in-flight ones finish within the bound, the job runner ends
 * its current run, after-commit work settles, then the database is closed, which lets PGlite
 * flush its files, and the process exits. Past the bound it exits anyway, saying what was cut.
 */
export async function gracefulShutdown(signal: string, deps: ShutdownDeps): Promise<void> {
  const log = logger();
  const deadline = Date.now() + deps.timeoutMs;
  const left = () => Math.max(0, deadline - Date.now());
  startDraining();
  log.info({ signal, inFlight: inFlightRequests(), timeoutMs: deps.timeoutMs }, "shutting down: finishing in-flight requests");
  const idle = await waitForIdle(left());
  if (!idle) log.warn({ inFlight: inFlightRequests() }, "shutdown bound reached with requests still in flight");
  const stopRunner = deps.stopRunner ?? (async () => runnerSlot().runner?.stop());
  const finished = await within(left(), Promise.all([stopRunner(), settleAfterCommit(), settleAccesses()]));
  if (!finished) log.warn("shutdown bound reached while background work was running; it resumes from the database at the next start");
  await within(Math.max(left(), 1000), (deps.closeDb ?? closeDb)());
  log.info("shutdown complete");
  (deps.exit ?? process.exit)(0);
}

async function within(ms: number, p: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((ok) => (timer = setTimeout(() => ok(false), ms)));
  const r = await Promise.race([
    p.then(
      () => true as const,
      () => true as const,
    ),
    timeout,
  ]);
  clearTimeout(timer);
  return r;
}

/** Installed once at boot; Next.js's own handler is off (`NEXT_MANUAL_SIG_HANDLE=true` in the start scripts). */
export function installShutdownHandlers(timeoutMs: number): void {
  if (!process.env.NEXT_MANUAL_SIG_HANDLE) return;
  let started = false;
  const onSignal = (signal: string) => {
    if (started) return;
    started = true;
    void gracefulShutdown(signal, { timeoutMs });
  };
  // `on`, not `once`: a repeated signal (Ctrl-C reaches both `npm run demo` and the server) must not kill the drain.
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));
}
