import type { Logger } from "pino";
import type { z } from "zod";
import type { Db } from "../../db/client";
import { asPacedWork } from "./paced-work";

/** A past-tense fact that triggers background work (`crm/events.queued`), with the schema of its data. */
export type JobEvent<S extends z.ZodType = z.ZodType> = { name: string; schema: S };

export function jobEvent<S extends z.ZodType>(name: string, schema: S): JobEvent<S> {
  return { name, schema };
}

export type JobDeps = { db: Db; log: Logger };

/**
 * Background work, declared once and read by both runners: `inngest/functions` turns each
 * definition into Inngest functions, `lib/jobs/embedded-runner.ts` runs the same `run` in-process on
 * timers. `run` claims its work from PostgreSQL and is safe to run twice, in parallel or again after
 * a crash: ordering and exactly-once effects live in the database, not in the runner.
 */
export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  /** Stable name; also the name of the Inngest step that runs it. */
  id: string;
  step: string;
  /** Inngest retries of a failed run (the work itself decides what a failure means). */
  retries: number;
  /** Run on a schedule: `cron` on Inngest, every `embeddedEveryMs` in the embedded runner. */
  schedule?: { functionId: string; cron: string; embeddedEveryMs: () => number };
  /**
   * Run when the event is sent (`sendJobEvent`). With `debounce`, a burst of events makes one run
   * (Inngest's debounce; the embedded runner keeps only the last payload of the events gathered
   * in its 10 ms wait, or during the run before: it never waits for a burst to end).
   */
  trigger?: {
    functionId: string;
    event: JobEvent<S>;
    debounce?: { period: `${number}s`; timeout: `${number}s` };
    /**
     * Embedded runner only: the events gathered before a run (or during the one before) make one
     * run with the last payload, at once. For work the run reads from the database anyway (each
     * run takes whatever is pending), so a burst is processed in batches instead of a run per
     * event. On Inngest each event still gets a run, without debounce's wait, one at a time
     * (`concurrency: 1`), so runs queue instead of racing for the same rows.
     */
    coalesce?: true;
  };
  /**
   * Work with a pace to keep (event delivery, lead processing): while a run is under way, work that
   * can wait (agent executions) yields to it in this process (`lib/jobs/paced-work.ts`).
   */
  paced?: true;
  /** The work: `data` is the trigger's parsed payload, or undefined for a scheduled run. */
  run(data: z.output<S> | undefined, deps: JobDeps): Promise<unknown>;
};

export function defineJob<S extends z.ZodType>(job: JobDefinition<S>): JobDefinition<S> {
  if (!job.paced) return job;
  const run = job.run;
  // Wrapped here, so both runners (and a test calling `run`) mark the run.
  return { ...job, run: (data, deps) => asPacedWork(() => run(data, deps)) };
}
