import type { InngestFunction } from "inngest";
import { getDb } from "../../db/client";
import type { JobDefinition } from "../../lib/jobs/define-job";
import { logger } from "../../lib/log/logger";
import { inngest } from "../client";

type Retries = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20;
const built = new WeakMap<JobDefinition, InngestFunction.Any[]>();

/**
 * The Inngest functions of a job definition: one on its cron schedule, one on its trigger event.
 * Thin: each runs the definition's `run` in one named step. Memoized, so every import of a job's
 * functions gets the same objects (Inngest ids must be unique per app).
 */
export function inngestFunctionsOf(job: JobDefinition): InngestFunction.Any[] {
  const cached = built.get(job);
  if (cached) return cached;
  const retries = Math.min(20, Math.max(0, job.retries)) as Retries;
  const deps = async () => ({ db: await getDb(), log: logger().child({ job: job.id }) });
  const fns: InngestFunction.Any[] = [];
  if (job.schedule) {
    fns.push(
      inngest.createFunction({ id: job.schedule.functionId, triggers: [{ cron: job.schedule.cron }], retries }, async ({ step }) =>
        step.run(job.step, async () => job.run(undefined, await deps())),
      ),
    );
  }
  const trigger = job.trigger;
  if (trigger) {
    fns.push(
      inngest.createFunction(
        {
          id: trigger.functionId,
          triggers: [{ event: trigger.event.name }],
          retries,
          ...(trigger.debounce ? { debounce: trigger.debounce } : {}),
          // A coalescing job's run takes whatever is pending: one at a time, the others queue
          // behind it and find little left, instead of racing it for the same rows.
          ...(trigger.coalesce ? { concurrency: { limit: 1 } } : {}),
        },
        async ({ event, step }) => step.run(job.step, async () => job.run(trigger.event.schema.parse(event.data ?? {}), await deps())),
      ),
    );
  }
  built.set(job, fns);
  return fns;
}
