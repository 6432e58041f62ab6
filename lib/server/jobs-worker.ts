import { sessionClient } from "../../db/client";
import { schemaAheadProblem } from "../../db/migrate";
import { config } from "../config";
import { deliverJobEvent } from "../jobs/dispatch";
import { startEmbeddedRunner } from "../jobs/embedded-runner";
import { jobs } from "../jobs/registry";
import { WAKE_CHANNEL, type Wake } from "../jobs/worker-wake";
import { logger } from "../log/logger";
import { checkDatabase } from "./database-check";

/**
 * The jobs worker (`npm run jobs`): the embedded runner in a process of its own, woken by the
 * NOTIFYs of web processes started with `JOBS_RUNNER=worker`. Lead processing and event delivery
 * then get a CPU and an event loop that a burst of requests cannot take from them. Every job claims
 * its work from PostgreSQL, so a worker that was down finds what waited when it starts again.
 * LISTEN needs a session: behind a transaction-mode pooler it listens on DATABASE_DIRECT_URL.
 */
export async function startJobsWorker(): Promise<{ stop: () => Promise<void> }> {
  const url = config().DATABASE_URL;
  if (!url)
    throw new Error(
      "The jobs worker needs PostgreSQL: set DATABASE_URL. The embedded database admits one process, whose own runner does the work (JOBS_RUNNER=embedded).",
    );
  await checkDatabase();
  // A worker older than the schema would fail every claim: one line instead.
  const ahead = await schemaAheadProblem();
  if (ahead) throw new Error(ahead);
  const log = logger().child({ component: "jobs-worker" });
  const listener = sessionClient("crm-jobs-worker");
  let runner: { stop: () => Promise<void> } | undefined;
  const sweep = () => {
    for (const job of jobs) if (job.trigger) deliverJobEvent(job.trigger.event.name, undefined);
  };
  try {
    await listener.listen(
      WAKE_CHANNEL,
      (payload) => {
        const wake = parseWake(payload);
        if (wake) deliverJobEvent(wake.name, wake.data);
        // Web processes also announce events no job here waits for (Inngest-only triggers).
        else log.debug({ payload: payload.slice(0, 200) }, "notification for no job of this worker");
      },
      // Listening, or listening again after a reconnect: notifications sent in between were lost,
      // so every triggered job sweeps what is pending.
      () => {
        if (runner) sweep();
        log.info({ channel: WAKE_CHANNEL, jobs: jobs.map((j) => j.id) }, "jobs worker listening");
      },
    );
  } catch (err) {
    await listener.end({ timeout: 0 });
    throw err;
  }
  // Started once the wake-ups can reach it; its first runs sweep what waited while no worker ran.
  runner = startEmbeddedRunner();
  sweep();
  return {
    // Closing the connection ends the LISTEN (an UNLISTEN could wait on a dead connection); the
    // runner lets its current runs finish meanwhile.
    stop: async () => {
      await Promise.all([listener.end({ timeout: 0 }), runner!.stop()]);
    },
  };
}

/** A notification's job event; data that does not fit the event's schema runs the job as a sweep. */
function parseWake(payload: string): Wake | undefined {
  let wake: Wake;
  try {
    wake = JSON.parse(payload) as Wake;
  } catch {
    return undefined;
  }
  const event = jobs.find((j) => j.trigger?.event.name === wake?.name)?.trigger?.event;
  if (!event) return undefined;
  const data = event.schema.safeParse(wake.data);
  return { name: event.name, data: wake.data === undefined || !data.success ? undefined : data.data };
}
