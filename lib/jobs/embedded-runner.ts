import { getDb } from "../../db/client";
import { logger } from "../log/logger";
import { metrics } from "../metrics/registry";
import type { JobDefinition } from "./define-job";
import { onJobEvent } from "./dispatch";
import { jobs } from "./registry";
import { runnerSlot } from "./runner-slot";

type Runner = { stop: () => Promise<void> };
const g = runnerSlot() as { runner?: Runner };

/** Whether this process runs the embedded runner (the readiness probe reports it). */
export const embeddedRunnerRunning = (): boolean => g.runner !== undefined;

/**
 * In-process stand-in for Inngest: runs every job of the registry on its schedule and when its
 * trigger event is sent. Runs of one job never overlap in one process; events during a run make the
 * next one start right after it. `stop()` lets a running job finish its current run.
 */
export function startEmbeddedRunner(): Runner {
  if (g.runner) return g.runner;
  const log = logger().child({ component: "embedded-runner" });
  const loops = jobs.map((job) => jobLoop(job, log));
  const unsubscribe = onJobEvent((name, data) =>
    loops.forEach((l) => {
      l.onEvent(name, data);
    }),
  );
  log.info({ jobs: jobs.map((j) => j.id) }, "embedded job runner started");
  g.runner = {
    stop: async () => {
      unsubscribe();
      await Promise.all(loops.map((l) => l.stop()));
      g.runner = undefined;
    },
  };
  return g.runner;
}

function jobLoop(job: JobDefinition, parent: ReturnType<typeof logger>) {
  const log = parent.child({ job: job.id });
  let stopped = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const queue: unknown[] = [];

  const runOnce = async (data: unknown) => {
    metrics().jobRuns.inc({ job: job.id });
    try {
      await job.run(data, { db: await getDb(), log });
    } catch (err) {
      metrics().jobFailures.inc({ job: job.id });
      log.error({ err }, "job run failed; it runs again on its schedule or next event");
    }
  };
  let dueAt = Infinity;
  /** Sets the next run; `sooner` only moves it earlier, so a stream of events cannot keep pushing it back. */
  const schedule = (ms: number | undefined, sooner = false) => {
    if (sooner && Date.now() + (ms ?? Infinity) >= dueAt) return;
    clearTimeout(timer);
    dueAt = Infinity;
    if (stopped || ms === undefined) return;
    dueAt = Date.now() + ms;
    timer = setTimeout(tick, ms);
    timer.unref?.();
  };
  const tick = () => {
    dueAt = Infinity;
    if (running) {
      again = true;
      return;
    }
    const batch = queue.splice(0);
    // A debounced trigger keeps the last payload of a burst, as Inngest's debounce does; a
    // coalescing one too, its run taking whatever is pending.
    const inputs = batch.length ? (job.trigger?.debounce || job.trigger?.coalesce ? [batch.at(-1)] : batch) : [undefined];
    running = (async () => {
      for (const data of inputs) if (!stopped) await runOnce(data);
    })().finally(() => {
      running = undefined;
      schedule(again || queue.length ? 0 : job.schedule?.embeddedEveryMs());
      again = false;
    });
  };
  schedule(job.schedule ? 0 : undefined);
  return {
    onEvent(name: string, data: unknown) {
      if (stopped || job.trigger?.event.name !== name) return;
      queue.push(data);
      // A short wait gathers a burst's events into one run; during a run, it starts right after.
      schedule(10, true);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
