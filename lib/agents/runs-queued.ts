import { z } from "zod";
import { jobEvent } from "../jobs/define-job";

/** Sent after a commit that queued agent executions: the job runs them at once instead of at the next poll. */
export const agentRunsQueued = jobEvent("crm/agent.runs-queued", z.object({}));
