/**
 * The agents' execution queue: claims (with a lease, so a dead worker's execution is taken over)
 * and the round that runs them side by side, as many as the process can take beside paced work.
 * Each claimed execution runs in `runExecution`.
 */
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "../../db/client";
import { preparedOn } from "../../db/prepared";
import { agentExecutions, type AgentExecutionRow } from "../../db/schema";
import { config } from "../config";
import { claimPool } from "../jobs/claim-pool";
import { onJobEvent } from "../jobs/dispatch";
import type { QueueRound } from "../jobs/drain";
import { pacedWorkRunning } from "../jobs/paced-work";
import { processLoad } from "../jobs/process-load";
import { type RunOptions, runExecution } from "./run-execution";
import { agentRunsQueued } from "./runs-queued";

/** A claim older than this belongs to a worker that died: the execution is taken over (and fails if tried too often). */
export const EXECUTION_LEASE_MS = 5 * 60_000;

// Executions yield to paced work (event delivery, lead processing: `lib/jobs/paced-work.ts`) before
// they start and before each later model step, for at most `PACED_YIELD_MS` each time. Claims go
// one at a time meanwhile (`agentSlots`), so what passes after the wait is the few already claimed.

/** Claims queued executions (and ones whose worker died) with SKIP LOCKED, oldest first: one round trip, built once per database (`preparedOn`). */
function claim(db: Db, limit: number): Promise<AgentExecutionRow[]> {
  return preparedOn(db, "agent-executions-claim", (d, name) =>
    d
      .update(agentExecutions)
      .set({ status: "running", claimedAt: sql`now()`, attempts: sql`${agentExecutions.attempts} + 1` })
      .where(
        sql`${agentExecutions.id} in (
          select id from agent_executions
          where status = 'queued' or (status = 'running' and claimed_at < now() - make_interval(secs => ${EXECUTION_LEASE_MS / 1000}))
          order by created_at
          limit ${sql.placeholder("limit")}
          for update skip locked)`,
      )
      .returning()
      .prepare(name),
  ).execute({ limit });
}

/** Side by side when the process is saturated: agents can wait, event delivery and leads have a pace to keep. */
const SLOTS_WHEN_BUSY = 4;
const BUSY = 0.9;

/**
 * How many executions may run at once now: `AGENTS_CONCURRENCY` (model calls are slow, database
 * work is short), one while paced work runs in this process, down to a few while this process's
 * event loop is saturated, so 200 executions
 * at once do not slow event delivery and lead processing running beside them (issue 34: by at
 * most 10 %). An execution already running finishes; the cap applies to the next claims.
 */
function agentSlots(): number {
  const all = config().AGENTS_CONCURRENCY;
  // One, never none: an execution is delayed by paced work, never starved by it.
  if (pacedWorkRunning()) return 1;
  return processLoad() >= BUSY ? Math.min(all, SLOTS_WHEN_BUSY) : all;
}

/**
 * One round of the job: up to `AGENTS_CONCURRENCY` executions side by side (see `claimPool`), woken when an
 * execution is queued in this process (`agentRunsQueued`): runs of a job never overlap, so without
 * this a message arriving while an execution waits for the model would wait for the whole round.
 */
export function runAgentExecutions(db: Db, log: Logger, limit = 32, opts: RunOptions = {}): Promise<QueueRound> {
  return claimPool({
    parallel: agentSlots,
    limit,
    claim: async () => (await claim(db, 1))[0],
    run: (e) => runExecution(db, e, log, opts),
    onError: (err, e) => log.error({ err, executionId: e.id }, "agent execution crashed; it is taken over after its lease"),
    subscribe: (wake) =>
      onJobEvent((name) => {
        if (name === agentRunsQueued.name) wake();
      }),
  });
}
