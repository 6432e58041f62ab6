import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { AgentEnvelopeSchema, AgentListSchema, CreateAgentSchema, UpdateAgentSchema } from "../../agents/schemas";
import { AgentTemplateListSchema } from "../../agents/templates";
import { AgentApprovalEnvelopeSchema, AgentApprovalListSchema, ListApprovalsQuery } from "../../agents/approvals";
import { AgentExecutionEnvelopeSchema, AgentExecutionPageSchema, ListExecutionsQuery, RunAgentSchema } from "../../agents/executions";
import { API_KEY_SECURITY, NOT_ADMIN, TOO_LARGE, UNAUTHORIZED_KEY, errors, ok, uuidParam } from "../common";

export const AGENTS_TAG = "Agents";

const ACCESS = "**Access.** Any member's key reads agents; creating, changing and deleting need a broad key of an `owner` or `admin` member (else 403).";

const FIELDS =
  "**Fields.** `executionMode`: `autonomous` sends, `approval` holds each outgoing message until a member approves it " +
  "(`/api/v1/agents/approvals`), `shadow` sends nothing and records what it would have sent. `audience`: `all`, " +
  "`unassigned` (chats and deals without a responsible broker) or `after_hours` (outside 08:00-18:00 Monday to Friday, " +
  "São Paulo time). `channelIds`: messaging channels of the tenant that the key's member may use (owner of the channel " +
  "or holding a grant); the agent sends with the grants of the member who created it, checked again at each send. " +
  "`triggers`: `inbound_message` (a message in an open chat of one of its channels), `lead_created` (a deal made from " +
  "a new lead), `deal_stage_changed`. `toolPolicy.allow` names the tools it may call (`search_listings`, `get_listing`, " +
  "`reply`, `save_deal`, `create_visit_task`, `label_chat`, `hand_over`); `maxSteps` 1 to 25 (default 8) and " +
  "`maxTokensPerExecution` 500 to 1,000,000 (default 20,000) end an execution as `failed` when reached.";

const EVENTS =
  "**Events.** `agent.created`, `agent.updated` and `agent.deleted`, written in the same transaction: `data.entityType` " +
  "`agent`, `data.data.entity` with `id`, `name`, `description`, `status`, `executionMode`, `model`, `audience`, " +
  "`templateId`, `createdAt`, `updatedAt`; `agent.updated` adds `data.data.changedFields`, the names of the changed " +
  "fields only. Events never carry instructions, channels, triggers or the tool policy. A change that changes nothing " +
  "writes no event.";

const NOT_FOUND = "No such agent in the tenant (`not_found`).";
const ONE_VOICE =
  "Another active agent already answers inbound messages on one of the channels (`channel_has_agent`): one voice per chat. Pause it, or choose another channel.";
const agentId = uuidParam("id", "agent");

export function registerAgentPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/agents",
    tags: [AGENTS_TAG],
    operationId: "listAgents",
    summary: "List agents",
    description: `The tenant's agents, oldest first.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    responses: { 200: ok("The agents.", AgentListSchema), ...errors({ 401: UNAUTHORIZED_KEY }) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/agents",
    tags: [AGENTS_TAG],
    operationId: "createAgent",
    summary: "Create an agent",
    description:
      "With `templateId`, every field not sent comes from the template; without it `name`, `instructions`, " +
      `\`executionMode\`, \`audience\`, \`triggers\` and \`toolPolicy\` are required. \`channelIds\` is always required; \`status\` defaults to \`active\`.\n\n${FIELDS}\n\n${ACCESS}\n\n${EVENTS}`,
    security: API_KEY_SECURITY,
    request: {
      body: {
        required: true,
        content: {
          "application/json": {
            schema: CreateAgentSchema,
            example: { templateId: "lead_qualifier", channelIds: ["3fa85f64-5717-4562-b3fc-2c963f66afa6"], executionMode: "approval" },
          },
        },
      },
    },
    responses: {
      201: ok("The new agent.", AgentEnvelopeSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`, or `invalid_json`): an unknown template or tool, a missing field, a channel that is not one of the tenant's the member may use.",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        409: ONE_VOICE,
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/agents/templates",
    tags: [AGENTS_TAG],
    operationId: "listAgentTemplates",
    summary: "List agent templates",
    description: `Built-in starting points (a lead qualifier, a listing answerer, a visit scheduler, an after-hours receptionist) with instructions in Brazilian Portuguese; pass an \`id\` as \`templateId\`.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    responses: { 200: ok("The templates.", AgentTemplateListSchema), ...errors({ 401: UNAUTHORIZED_KEY }) },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/agents/{id}",
    tags: [AGENTS_TAG],
    operationId: "getAgent",
    summary: "Read one agent",
    description: ACCESS,
    security: API_KEY_SECURITY,
    request: { params: agentId },
    responses: { 200: ok("The agent.", AgentEnvelopeSchema), ...errors({ 401: UNAUTHORIZED_KEY, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "patch",
    path: "/api/v1/agents/{id}",
    tags: [AGENTS_TAG],
    operationId: "updateAgent",
    summary: "Change an agent",
    description: `The fields to change, at least one; \`toolPolicy\` is replaced whole.\n\n${FIELDS}\n\n${ACCESS}\n\n${EVENTS}`,
    security: API_KEY_SECURITY,
    request: { params: agentId, body: { required: true, content: { "application/json": { schema: UpdateAgentSchema, example: { status: "paused" } } } } },
    responses: {
      200: ok("The agent after the change.", AgentEnvelopeSchema),
      ...errors({ 400: "Invalid or empty body.", 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND, 409: ONE_VOICE, 413: TOO_LARGE }),
    },
  });
  r.registerPath({
    method: "delete",
    path: "/api/v1/agents/{id}",
    tags: [AGENTS_TAG],
    operationId: "deleteAgent",
    summary: "Delete an agent",
    description: `Deletes the agent with its executions and held messages, and writes \`agent.deleted\` with its last state.\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: agentId },
    responses: { 204: { description: "Deleted." }, ...errors({ 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND }) },
  });

  const EXECUTIONS =
    "**Executions.** A trigger (or `POST /agents/{id}/run`) queues one execution; a background job runs it: it reads the " +
    "chat through the provider feed (as the conversation detail does), calls the tenant's model with the allowed tools, " +
    "runs them with the grants of the agent's creator and every send gate (`channel_access_grant`, `chat_privacy_mode`, " +
    "`outreach_safety` with opt-outs, idempotency), and records each step. A tenant whose monthly token budget is spent " +
    "gets `failed` with `errorMessage` `budget_exhausted` and no model call. `agent.execution.started`, then exactly one " +
    "of `agent.execution.completed` (with `tokenUsage`, `toolCount`, `toolNames`, `outcome`) or `agent.execution.failed` " +
    "(with `errorMessage`); `skipped` executions never started and have no events. `steps` (tool inputs and outputs) " +
    "are shown to owner and admin broad keys only, and never in events.";
  r.registerPath({
    method: "post",
    path: "/api/v1/agents/{id}/run",
    tags: [AGENTS_TAG],
    operationId: "runAgent",
    summary: "Run an agent now",
    description:
      "Queues an execution for a chat (`{channelId, chatId}`: one of the agent's channels, that the key's member may use; " +
      "an existing chat, or a phone-form `<digits>@c.us` to open one) or a deal (`{dealId}`: its linked chat, else its " +
      "contact's phone on the agent's first channel). A chat that already has an execution waiting answers that one. " +
      `A manual run overrides a hand-over or a human reply in the chat, never an opt-out.\n\n${EXECUTIONS}`,
    security: API_KEY_SECURITY,
    request: {
      params: agentId,
      body: {
        required: true,
        content: {
          "application/json": { schema: RunAgentSchema, example: { channelId: "3fa85f64-5717-4562-b3fc-2c963f66afa6", chatId: "5511987654321@c.us" } },
        },
      },
    },
    responses: {
      202: ok("The queued execution.", AgentExecutionEnvelopeSchema),
      ...errors({
        400: "Invalid body, a channel that is not the agent's or not usable by the key's member, an unknown chat, or a deal the key cannot see.",
        401: UNAUTHORIZED_KEY,
        403: NOT_ADMIN,
        404: NOT_FOUND,
        409: "The agent is paused (`agent_paused`).",
        413: TOO_LARGE,
      }),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/agents/{id}/executions",
    tags: [AGENTS_TAG],
    operationId: "listAgentExecutions",
    summary: "List an agent's executions",
    description: `Newest first.\n\n${EXECUTIONS}\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: agentId, query: ListExecutionsQuery },
    responses: { 200: ok("One page of executions.", AgentExecutionPageSchema), ...errors({ 400: "Invalid query.", 401: UNAUTHORIZED_KEY, 404: NOT_FOUND }) },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/agents/executions/{executionId}",
    tags: [AGENTS_TAG],
    operationId: "getAgentExecution",
    summary: "Read one execution",
    description: `${EXECUTIONS}\n\n${ACCESS}`,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("executionId", "agent execution") },
    responses: {
      200: ok("The execution.", AgentExecutionEnvelopeSchema),
      ...errors({ 401: UNAUTHORIZED_KEY, 404: "No such execution in the tenant (`not_found`)." }),
    },
  });
  const APPROVALS =
    "Messages agents in `approval` mode hold until a member decides, and (with `status=shadow`) what `shadow` agents " +
    "would have sent. A member sees those of the channels it may use (owner or grant); any other is a 404.";
  r.registerPath({
    method: "get",
    path: "/api/v1/agents/approvals",
    tags: [AGENTS_TAG],
    operationId: "listAgentApprovals",
    summary: "List held agent messages",
    description: `Oldest first, at most 500.\n\n${APPROVALS}`,
    security: API_KEY_SECURITY,
    request: { query: ListApprovalsQuery },
    responses: { 200: ok("The messages.", AgentApprovalListSchema), ...errors({ 400: "Invalid query.", 401: UNAUTHORIZED_KEY }) },
  });
  for (const [verb, summary, text] of [
    [
      "approve",
      "Approve and send a held message",
      "Sends it now through the send verb with the member's grants and every gate; `ack` is the send's answer (a gate may still refuse it, as for any send). A second approve cannot send twice.",
    ],
    ["reject", "Reject a held message", "The message is never sent."],
  ] as const) {
    r.registerPath({
      method: "post",
      path: `/api/v1/agents/approvals/{id}/${verb}`,
      tags: [AGENTS_TAG],
      operationId: verb === "approve" ? "approveAgentMessage" : "rejectAgentMessage",
      summary,
      description: `${text}\n\n${APPROVALS}`,
      security: API_KEY_SECURITY,
      request: { params: uuidParam("id", "held message") },
      responses: {
        200: ok("The message after the decision.", AgentApprovalEnvelopeSchema),
        ...errors({
          401: UNAUTHORIZED_KEY,
          404: "No such held message visible to the key (`not_found`).",
          409: "Already approved or rejected (`approval_decided`).",
        }),
      },
    });
  }
}
