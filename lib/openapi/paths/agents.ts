import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { AgentEnvelopeSchema, AgentListSchema, CreateAgentSchema, UpdateAgentSchema } from "../../agents/schemas";
import { AgentTemplateListSchema } from "../../agents/templates";
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
      ...errors({ 400: "Invalid or empty body.", 401: UNAUTHORIZED_KEY, 403: NOT_ADMIN, 404: NOT_FOUND, 413: TOO_LARGE }),
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
}
