import { getDb } from "../../db/client";
import { config } from "../config";
import { deliverDueEvents } from "../events/deliver";
import { logger } from "../log/logger";
import { onWake } from "./wake";

const g = globalThis as unknown as { __crmRunner?: { stop: () => Promise<void> } };

/**
 * In-process stand-in for Inngest: runs the same `lib/` work on a timer. Delivery cycles never
 * overlap in one process; a wake-up during a cycle makes the next one start right after it.
 */
export function startEmbeddedRunner(): { stop: () => Promise<void> } {
  if (g.__crmRunner) return g.__crmRunner;
  const log = logger().child({ component: "embedded-runner" });
  let stopped = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const cycle = async () => {
    try {
      const r = await deliverDueEvents(await getDb());
      if (r.delivered || r.failed) log.info(r, "delivery cycle");
    } catch (err) {
      log.error({ err }, "delivery cycle failed; retrying at the next poll");
    }
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref?.();
  };
  const tick = () => {
    if (running) {
      again = true;
      return;
    }
    running = cycle().finally(() => {
      running = undefined;
      schedule(again ? 0 : config().EVENTS_POLL_INTERVAL_MS);
      again = false;
    });
  };
  const unsubscribe = onWake(() => schedule(10));
  schedule(0);
  log.info({ pollMs: config().EVENTS_POLL_INTERVAL_MS }, "embedded job runner started");
  g.__crmRunner = {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      await running;
      g.__crmRunner = undefined;
    },
  };
  return g.__crmRunner;
}
