import { performance } from "node:perf_hooks";
import { processGlobal } from "../util/process-global";

const SAMPLE_MS = 250;
const g = processGlobal("process-load", () => ({ timer: undefined as NodeJS.Timeout | undefined, last: performance.eventLoopUtilization(), value: 0 }));

/**
 * How busy this process's event loop was over the last quarter second (0 idle, 1 never idle), from
 * Node's event-loop utilization. Sampled on a timer started by the first call (unref'd: it keeps no
 * process alive). Work that can wait (agent executions) runs less of itself side by side when the
 * process is saturated, so the work with a contract (event delivery, lead processing) keeps its pace.
 */
export function processLoad(): number {
  if (!g.timer) {
    g.last = performance.eventLoopUtilization();
    g.timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      g.value = performance.eventLoopUtilization(now, g.last).utilization;
      g.last = now;
    }, SAMPLE_MS);
    g.timer.unref();
  }
  return g.value;
}
