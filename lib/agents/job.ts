import { defineJob } from "../jobs/define-job";
import { drainQueue } from "../jobs/drain";
import { runAgentExecutions } from "./run-execution";
import { agentRunsQueued } from "./runs-queued";

/**
 * Runs queued agent executions. Each is queued in the transaction of what triggered it and claimed
 * with SKIP LOCKED, so two runners never run one execution; a worker that died leaves it to be
 * taken over after its lease. Woken at once by `crm/agent.runs-queued`, polled as a backstop.
 * The backstop runs every second in the embedded runner: the agents bench (PostgreSQL, idle) found
 * some wake-ups lost (queued -> claimed p95 4.7 s, the old 5 s poll) by a race not yet found; at
 * 1 s the first reply's p95 is 1.1 s. An idle poll is one claim on a partial index of pending rows.
 */
export const runAgentExecutionsJob = defineJob({
  id: "run-agent-executions",
  step: "run-agent-executions",
  retries: 2,
  schedule: { functionId: "run-agent-executions-cron", cron: "* * * * *", embeddedEveryMs: () => 1_000 },
  trigger: { functionId: "run-agent-executions-on-queue", event: agentRunsQueued, coalesce: true },
  run: (_data, { db, log }) =>
    drainQueue(
      (limit) => runAgentExecutions(db, log, limit),
      32,
      (failed) => log.warn({ failed }, "agent executions crashed; they are taken over after their lease"),
    ),
});
