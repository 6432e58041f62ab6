import type { AgentExecutionRow } from "../../db/schema";
import type { NewEvent } from "../outbox/record-event";

/** The fields every execution event carries (spec 2 §6): ids, timings and status; never text. */
function common(e: AgentExecutionRow, agentName: string) {
  const durationMs = e.startedAt && e.completedAt ? e.completedAt.getTime() - e.startedAt.getTime() : null;
  return {
    executionId: e.id,
    agentId: e.agentId,
    agentName,
    triggerType: e.triggerType,
    triggerId: e.triggerId,
    channelId: e.channelId,
    chatId: e.chatId,
    startedAt: e.startedAt?.toISOString() ?? null,
    completedAt: e.completedAt?.toISOString() ?? null,
    durationMs,
    status: e.status,
  };
}

export const tokenUsageOf = (e: AgentExecutionRow) => ({
  inputTokens: e.inputTokens,
  outputTokens: e.outputTokens,
  totalTokens: e.inputTokens + e.outputTokens,
});

/**
 * `agent.execution.started`, then exactly one of `completed` (with `tokenUsage`, `toolCount`,
 * `toolNames`, `outcome`) or `failed` (with `errorMessage`), for the execution's state as written.
 * No prompt, message, reply or tool input/output is ever in them.
 */
export function executionEvent(e: AgentExecutionRow, agentName: string): NewEvent {
  const eventName = e.status === "running" ? "agent.execution.started" : e.status === "completed" ? "agent.execution.completed" : "agent.execution.failed";
  let data: Record<string, unknown> = common(e, agentName);
  if (e.status === "completed") data = { ...data, tokenUsage: tokenUsageOf(e), toolCount: e.toolNames.length, toolNames: e.toolNames, outcome: e.outcome };
  if (e.status === "failed") data = { ...data, errorMessage: e.errorMessage };
  return { tenantId: e.tenantId, eventName, entityType: "agent_execution", entityId: e.id, userId: null, data };
}
