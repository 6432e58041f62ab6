import { config } from "../config";
import { defineJob } from "../jobs/define-job";
import { drainQueue } from "../jobs/drain";
import { runAgentExecutions } from "./execution-queue";
import { agentRunsQueued } from "./runs-queued";

/**
 * Runs queued agent executions. Each is queued in the transaction of what triggered it and claimed
 * with SKIP LOCKED, so two runners never run one execution; a worker that died leaves it to be
 * taken over after its lease. Woken at once by `crm/agent.runs-queued`, polled every 5 s as a
 * backstop (an event lost with a crashed process). The 1 s poll of an earlier version hid a bug of
 * the round's worker pool, fixed in `claimPool`: first replies waited seconds for the poll.
 */
export const runAgentExecutionsJob = defineJob({
  id: "run-agent-executions",
  step: "run-agent-executions",
  retries: 2,
  schedule: { functionId: "run-agent-executions-cron", cron: "* * * * *", embeddedEveryMs: () => 5_000 },
  trigger: { functionId: "run-agent-executions-on-queue", event: agentRunsQueued, coalesce: true },
  run: (_data, { db, log }) =>
    drainQueue(
      (limit) => runAgentExecutions(db, log, limit),
      // Several executions per slot a round: a round waits for its last execution, so a round of
      // exactly the concurrency would run ever fewer side by side towards its end.
      config().AGENTS_CONCURRENCY * 4,
      (failed) => log.warn({ failed }, "agent executions crashed; they are taken over after their lease"),
    ),
});
