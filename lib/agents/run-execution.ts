import { APICallError, generateText, stepCountIs, type StepResult, type ToolSet } from "ai";
import { and, eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "../../db/client";
import { preparedOn } from "../../db/prepared";
import { agentChatPauses, agentExecutions, agents, contacts, dealContacts, members, type AgentExecutionRow, type AgentRow } from "../../db/schema";
import { tokenUsageUpsert } from "../ai/token-budget";
import { tenantModelAndBudget } from "../ai/tenant-model";
import { config } from "../config";
import { OutboundError } from "../outbound-fetch/outbound-error";
import { accessOf, type MemberActor } from "../context/actor";
import { memberCtx, type MemberCtx } from "../context/verb-context";
import { DetailQuery, conversationDetail } from "../messaging/conversations/detail";
import { PACED_YIELD_MS, yieldToPacedWork } from "../jobs/paced-work";
import { executionEvent } from "./execution-events";
import { changeWithEvents } from "../outbox/record-event";
import type { PauseReason } from "./pauses";
import { chatMessages, systemPrompt, type HistoryLine } from "./prompt";
import { buildTools, type RunState } from "./tools";
import { isAgentTool } from "./tool-names";

/** Tried this often (claims, including take-overs after a lease), an execution fails. */
const MAX_ATTEMPTS = 2;

export type RunOptions = {
  stepTimeoutMs?: number;
  totalTimeoutMs?: number;
  /** Longest an execution waits for paced work before a step (`PACED_YIELD_MS`); tests shorten it. */
  pacedYieldMs?: number;
};

/**
 * The agent, the member whose grants it acts with (its creator, while active and of the agent's
 * tenant) and the chat's pause, in one read: each read before the model's first call is a round
 * trip and CPU on the path measured per step (issue 34).
 */
async function agentOwnerAndPause(
  db: Db,
  exec: AgentExecutionRow,
): Promise<{ agent: AgentRow; owner: { id: string; role: MemberActor["role"] } | null; pause: PauseReason | null } | undefined> {
  const inChat = Boolean(exec.channelId && exec.chatId);
  const [row] = await preparedOn(db, inChat ? "agent-owner-pause" : "agent-owner", (d, name) =>
    d
      .select({
        agent: agents,
        ownerId: members.id,
        ownerRole: members.role,
        pause: inChat
          ? sql<PauseReason | null>`(select ${agentChatPauses.reason} from ${agentChatPauses} where ${and(
              eq(agentChatPauses.channelId, sql.placeholder("channelId")),
              eq(agentChatPauses.chatId, sql.placeholder("chatId")),
            )} limit 1)`
          : sql<null>`null`,
      })
      .from(agents)
      .leftJoin(members, and(eq(members.id, agents.createdById), eq(members.tenantId, agents.tenantId), eq(members.active, true)))
      .where(eq(agents.id, sql.placeholder("agentId")))
      .limit(1)
      .prepare(name),
  ).execute({ agentId: exec.agentId, channelId: exec.channelId, chatId: exec.chatId });
  if (!row) return undefined;
  return { agent: row.agent, owner: row.ownerId && row.ownerRole ? { id: row.ownerId, role: row.ownerRole } : null, pause: row.pause ?? null };
}

/** The owner as the verbs' actor. */
function agentActor(agent: AgentRow, owner: { id: string; role: MemberActor["role"] }): MemberActor {
  return {
    kind: "member",
    tenantId: agent.tenantId,
    userId: owner.id,
    role: owner.role,
    scope: "broad",
    keyId: agent.id,
    access: accessOf(owner.role, "broad"),
    agentId: agent.id,
  };
}

type Finish = { status: "completed"; outcome: string } | { status: "failed"; errorMessage: string } | { status: "skipped"; outcome: string };

/**
 * Records the end of an execution once (fenced by its claim's attempt number), with its event in
 * the same statement (`changeWithEvents`: the tenant's lock only while the server runs it). A
 * skipped execution (the agent was paused, the chat taken over) never started: it has no events,
 * so it takes no tenant lock either.
 */
async function finish(
  db: Db,
  exec: AgentExecutionRow,
  agent: AgentRow,
  f: Finish,
  extra: Partial<AgentExecutionRow> = {},
  tokens?: { inputTokens: number; outputTokens: number },
) {
  const set = {
    ...extra,
    status: f.status,
    outcome: f.status === "failed" ? null : f.outcome,
    errorMessage: f.status === "failed" ? f.errorMessage : null,
    completedAt: new Date(),
  };
  const fenced = and(eq(agentExecutions.id, exec.id), eq(agentExecutions.attempts, exec.attempts), eq(agentExecutions.status, "running"));
  if (f.status === "skipped") {
    await db.update(agentExecutions).set(set).where(fenced);
    return;
  }
  const row: AgentExecutionRow = { ...exec, ...set };
  await changeWithEvents(
    db,
    exec.tenantId,
    (locked) => db.update(agentExecutions).set(set).where(and(fenced, locked)).returning({ id: agentExecutions.id }).getSQL(),
    [executionEvent(row, agent.name)],
    // Counted whether or not the fenced update matched (a worker that took the execution over
    // meanwhile): the provider billed the calls either way.
    (locked) => (tokens ? [tokenUsageUpsert(exec.tenantId, { ...tokens, purpose: "agent" }, locked)] : []),
  );
}

/** Marks the execution started, with `agent.execution.started` in the same statement; throws if another worker took it over meanwhile. */
async function start(db: Db, exec: AgentExecutionRow, agent: AgentRow): Promise<AgentExecutionRow> {
  if (exec.startedAt) return exec; // taken over after a crash: it started once
  const row: AgentExecutionRow = { ...exec, startedAt: new Date() };
  const changed = await changeWithEvents(
    db,
    exec.tenantId,
    (locked) =>
      db
        .update(agentExecutions)
        .set({ startedAt: row.startedAt })
        .where(and(eq(agentExecutions.id, exec.id), eq(agentExecutions.attempts, exec.attempts), locked))
        .returning({ id: agentExecutions.id })
        .getSQL(),
    [executionEvent(row, agent.name)],
  );
  if (!changed.length) throw new Error(`agent execution ${exec.id}: its claim was taken over before it started`);
  return row;
}

const tokensOf = (steps: StepResult<ToolSet>[]) => steps.reduce((n, s) => n + (s.usage.inputTokens ?? 0) + (s.usage.outputTokens ?? 0), 0);

/** Why a model call failed, as a short code: the execution's `errorMessage` (no provider text leaks). */
function modelFailure(err: unknown): string {
  if (err instanceof OutboundError) return err.kind === "timeout" ? "model_timeout" : "model_unavailable";
  const name = (err as { name?: string })?.name ?? "";
  const text = `${name} ${(err as Error)?.message ?? ""} ${String((err as { cause?: unknown })?.cause ?? "")}`;
  if (/abort|timeout|timed out/i.test(text)) return "model_timeout";
  if (APICallError.isInstance(err)) {
    if (err.statusCode && err.statusCode >= 400) return `model_unavailable`;
    return "model_invalid_response";
  }
  if (/JSON|TypeValidation|InvalidResponse|parse|NoContentGenerated|NoOutput/i.test(text)) return "model_invalid_response";
  return "model_unavailable";
}

export async function runExecution(db: Db, claimed: AgentExecutionRow, log: Logger, opts: RunOptions = {}): Promise<void> {
  const pacedYieldMs = opts.pacedYieldMs ?? PACED_YIELD_MS;
  await yieldToPacedWork(pacedYieldMs);
  const found = await agentOwnerAndPause(db, claimed);
  if (!found) return; // deleted with its executions
  const { agent, owner, pause } = found;
  if (claimed.attempts > MAX_ATTEMPTS) {
    const exec = await start(db, claimed, agent);
    return finish(db, exec, agent, { status: "failed", errorMessage: "interrupted" });
  }
  if (agent.status !== "active") return finish(db, claimed, agent, { status: "skipped", outcome: "agent_paused" });
  // A member asking for a run overrides a hand-over or a human reply, never an opt-out.
  if (pause && (claimed.triggerType !== "manual" || pause === "opt_out"))
    return finish(db, claimed, agent, { status: "skipped", outcome: `chat_paused_${pause}` });

  if (!owner) return finish(db, await start(db, claimed, agent), agent, { status: "failed", errorMessage: "agent_owner_inactive" });
  const ctx = memberCtx(db, agentActor(agent, owner));

  // The reads go side by side with the start's statement, which may wait for the tenant's lock
  // (other executions, inbound messages, leads of the tenant): none of them depends on it.
  const [exec, { tm, budget }, conv] = await Promise.all([
    start(db, claimed, agent),
    tenantModelAndBudget(ctx, agent.model ? { model: agent.model } : {}),
    readConversation(ctx, claimed),
  ]);
  if (budget.exhausted) return finish(db, exec, agent, { status: "failed", errorMessage: "budget_exhausted" });
  if (!tm) return finish(db, exec, agent, { status: "failed", errorMessage: "model_not_configured" });
  if ("failure" in conv) return finish(db, exec, agent, { status: "failed", errorMessage: conv.failure });

  const dealId = exec.dealId ?? conv.dealId;
  const contactName = conv.contactName ?? (dealId ? await dealContactName(db, exec.tenantId, dealId) : null);
  const state: RunState = {
    ctx,
    agent,
    exec,
    channelId: exec.channelId,
    chatId: exec.chatId,
    dealId,
    contactName,
    hasConversation: conv.exists,
    replies: 0,
    sent: 0,
    held: 0,
    shadowed: 0,
    blocked: [],
    handedOver: false,
    steps: [],
  };
  const policy = agent.toolPolicy;
  const log2: Record<string, unknown>[] = [];
  let input = 0;
  let output = 0;
  const toolNames: string[] = [];
  const trigger = {
    inbound_message: "nova mensagem do cliente",
    lead_created: "novo lead",
    deal_stage_changed: "o negócio mudou de etapa",
    manual: "pedido de um corretor",
  }[exec.triggerType as "manual"];
  let f: Finish;
  try {
    const result = await generateText({
      model: tm.model,
      system: systemPrompt(agent.instructions, { now: new Date(), contactName: state.contactName, dealId: state.dealId, trigger }),
      messages: chatMessages(conv.history, `[${trigger}: responda ao cliente usando as ferramentas]`),
      tools: buildTools(state),
      maxRetries: 0,
      // The first step follows the wait above; later ones wait again (within the step's timeout,
      // which starts before this: the wait is bounded well below it).
      prepareStep: async ({ stepNumber }) => {
        if (stepNumber > 0) await yieldToPacedWork(Math.min(pacedYieldMs, (opts.stepTimeoutMs ?? config().AI_TIMEOUT_MS) / 4));
        return undefined;
      },
      timeout: { stepMs: opts.stepTimeoutMs ?? config().AI_TIMEOUT_MS },
      abortSignal: AbortSignal.timeout(opts.totalTimeoutMs ?? 3 * 60_000),
      stopWhen: [stepCountIs(policy.maxSteps), () => state.handedOver, ({ steps }) => tokensOf(steps) >= policy.maxTokensPerExecution],
      onStepFinish: (step) => {
        input += step.usage.inputTokens ?? 0;
        output += step.usage.outputTokens ?? 0;
        for (const c of step.toolCalls) {
          if (c.invalid) {
            // Not offered to the model (outside the policy, or unknown), or its input did not parse.
            const allowed = isAgentTool(c.toolName) && policy.allow.includes(c.toolName);
            state.steps.push({
              tool: c.toolName,
              status: allowed ? "error" : "refused",
              input: c.input,
              output: { error: allowed ? "invalid_input" : isAgentTool(c.toolName) ? "tool_not_allowed" : "unknown_tool" },
              at: new Date().toISOString(),
              ms: 0,
            });
          } else toolNames.push(c.toolName);
        }
        log2.push({
          step: log2.length + 1,
          finishReason: step.finishReason,
          inputTokens: step.usage.inputTokens ?? 0,
          outputTokens: step.usage.outputTokens ?? 0,
        });
      },
    });
    const last = result.steps.at(-1);
    if (input + output > policy.maxTokensPerExecution) f = { status: "failed", errorMessage: "token_limit_exceeded" };
    else if (!state.handedOver && result.steps.length >= policy.maxSteps && last?.finishReason === "tool-calls")
      f = { status: "failed", errorMessage: "max_steps_exceeded" };
    else {
      // A model that answered in plain text instead of calling `reply`: that text is its reply.
      const text = result.text.trim();
      if (text && state.replies === 0 && !state.handedOver && policy.allow.includes("reply") && state.chatId) {
        const tools = buildTools(state) as Record<string, { execute?: (i: unknown, o: unknown) => Promise<unknown> }>;
        await tools.reply.execute?.({ text: text.slice(0, 4096) }, { toolCallId: "final-text", messages: [] });
        toolNames.push("reply");
      }
      f = { status: "completed", outcome: outcomeOf(state) };
    }
  } catch (err) {
    const code = modelFailure(err);
    if (code === "model_unavailable") log.warn({ err, executionId: exec.id }, "agent execution: the model call failed");
    f = { status: "failed", errorMessage: code };
  }
  // The tokens are recorded by the statement that records the end (`finish`): one statement and
  // socket write less per execution than an upsert of their own beside it (issue 34).
  await finish(
    db,
    exec,
    agent,
    f,
    {
      inputTokens: input,
      outputTokens: output,
      toolNames,
      dealId: state.dealId,
      steps: [...log2.map((s) => ({ kind: "model", ...s })), ...state.steps.map((s) => ({ kind: "tool", ...s }))],
    },
    input || output ? { inputTokens: input, outputTokens: output } : undefined,
  );
}

function outcomeOf(s: RunState): string {
  if (s.handedOver) return "handed_over";
  if (s.sent) return "replied";
  if (s.held) return "held_for_approval";
  if (s.shadowed) return "shadow_recorded";
  if (s.blocked.length) return `blocked_${s.blocked[0]}`;
  return "no_reply";
}

/** The chat through the provider feed, as the conversation detail endpoint reads it, with the agent's grants. */
async function readConversation(
  ctx: MemberCtx,
  exec: AgentExecutionRow,
): Promise<{ failure: string } | { exists: boolean; history: HistoryLine[]; contactName: string | null; dealId: string | null }> {
  if (!exec.channelId || !exec.chatId) return { exists: false, history: [], contactName: null, dealId: null };
  const detail = await conversationDetail(ctx, DetailQuery.parse({ channelId: exec.channelId, chatId: exec.chatId, limit: "30" }));
  if (detail.rejection) {
    // A new lead's chat may not exist yet: the agent opens it (a proactive send, through the gates).
    if (detail.rejection === "not_found_or_inaccessible" && exec.triggerType !== "inbound_message") {
      return { exists: false, history: [], contactName: null, dealId: null };
    }
    return { failure: detail.rejection };
  }
  const h = detail.history;
  if (h?.unavailableReason) return { failure: "conversation_unavailable" };
  const history = (h?.messages ?? [])
    .slice()
    .reverse()
    .map((m) => ({ direction: m.direction, text: m.text, at: m.at }));
  return {
    exists: true,
    history,
    contactName: detail.conversation?.participant.displayName ?? null,
    dealId: detail.conversation?.links.primaryDealId ?? null,
  };
}

/** The deal's first contact's name (a new lead's chat has no push name yet). */
async function dealContactName(db: Db, tenantId: string, dealId: string): Promise<string | null> {
  const [c] = await db
    .select({ name: contacts.name })
    .from(dealContacts)
    .innerJoin(contacts, eq(contacts.id, dealContacts.contactId))
    .where(and(eq(dealContacts.dealId, dealId), eq(dealContacts.tenantId, tenantId)))
    .orderBy(dealContacts.position)
    .limit(1);
  return c?.name ?? null;
}
