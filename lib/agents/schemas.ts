import { z } from "zod";
import type { AgentRow } from "../../db/schema";
import { AGENT_TOOL_NAMES, isAgentTool } from "./tool-names";
import { AGENT_TEMPLATES, templateById } from "./templates";

export const AGENT_STATUSES = ["active", "paused"] as const;
export const EXECUTION_MODES = ["autonomous", "approval", "shadow"] as const;
export const AUDIENCES = ["all", "unassigned", "after_hours"] as const;
export const TRIGGERS = ["inbound_message", "lead_created", "deal_stage_changed"] as const;

export const DEFAULT_MAX_STEPS = 8;
export const MAX_STEPS_LIMIT = 25;
export const DEFAULT_MAX_TOKENS = 20_000;

const lower = (v: string) => v.toLowerCase();

const ToolPolicyInput = z.strictObject({
  allow: z
    .array(z.string())
    .max(AGENT_TOOL_NAMES.length)
    .superRefine((names, c) => {
      for (const [i, n] of names.entries()) {
        if (!isAgentTool(n)) c.addIssue({ code: "custom", path: [i], message: `unknown tool '${n}' (known: ${AGENT_TOOL_NAMES.join(", ")})` });
      }
      if (new Set(names).size !== names.length) c.addIssue({ code: "custom", message: "lists a tool twice" });
    })
    .meta({ description: `Tools the agent may call: any of ${AGENT_TOOL_NAMES.map((n) => `\`${n}\``).join(", ")}.` }),
  maxSteps: z
    .number()
    .int()
    .min(1)
    .max(MAX_STEPS_LIMIT)
    .optional()
    .meta({ description: `Model calls per execution, 1 to ${MAX_STEPS_LIMIT} (default ${DEFAULT_MAX_STEPS}); reaching it fails the execution.` }),
  maxTokensPerExecution: z
    .number()
    .int()
    .min(500)
    .max(1_000_000)
    .optional()
    .meta({ description: `Input plus output tokens per execution, 500 to 1,000,000 (default ${DEFAULT_MAX_TOKENS}); passing it fails the execution.` }),
});

const Writable = {
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(1000).nullable(),
  status: z.enum(AGENT_STATUSES),
  executionMode: z.enum(EXECUTION_MODES).meta({
    description: "`autonomous` sends; `approval` holds each message until a member approves it; `shadow` sends nothing and records what it would send.",
  }),
  audience: z.enum(AUDIENCES).meta({
    description:
      "`all` chats; `unassigned`: chats and deals without a responsible broker; `after_hours`: outside 08:00-18:00 Monday to Friday, São Paulo time.",
  }),
  model: z.string().trim().min(1).max(200).nullable().meta({ description: "A model id of the tenant's provider; default: the AI settings' `defaultModel`." }),
  instructions: z.string().trim().min(1).max(20_000),
  channelIds: z
    .array(z.uuid().transform(lower))
    .max(20)
    .refine((ids) => new Set(ids).size === ids.length, "lists a channel twice")
    .meta({ description: "Messaging channels of the tenant the agent works on; the key's member must be allowed to use each." }),
  triggers: z
    .array(z.enum(TRIGGERS))
    .max(TRIGGERS.length)
    .refine((t) => new Set(t).size === t.length, "lists a trigger twice")
    .meta({ description: "What starts an execution besides `POST /agents/{id}/run`: `inbound_message`, `lead_created`, `deal_stage_changed`." }),
  toolPolicy: ToolPolicyInput,
};

export const CreateAgentSchema = z
  .strictObject({
    name: Writable.name.optional(),
    description: Writable.description.optional(),
    templateId: z
      .string()
      .refine((id) => Boolean(templateById(id)), `unknown template (one of: ${AGENT_TEMPLATES.map((t) => t.id).join(", ")})`)
      .optional()
      .meta({ description: "A built-in template (`GET /api/v1/agents/templates`): fills every field not sent." }),
    status: Writable.status.optional().meta({ description: "Default `active`." }),
    executionMode: Writable.executionMode.optional(),
    audience: Writable.audience.optional(),
    model: Writable.model.optional(),
    instructions: Writable.instructions.optional(),
    channelIds: Writable.channelIds,
    triggers: Writable.triggers.optional(),
    toolPolicy: Writable.toolPolicy.optional(),
  })
  .superRefine((v, c) => {
    if (v.templateId) return;
    for (const k of ["name", "instructions", "executionMode", "audience", "triggers", "toolPolicy"] as const) {
      if (v[k] === undefined) c.addIssue({ code: "custom", path: [k], message: "required without a `templateId`" });
    }
  })
  .meta({ id: "AgentCreate" });

export const UpdateAgentSchema = z.strictObject(Writable).partial().meta({ id: "AgentUpdate" });

export const ListExecutionsQuery = z.strictObject({}).meta({ id: "ListAgentExecutionsQuery" });

const ToolPolicySchema = z.object({ allow: z.array(z.string()), maxSteps: z.number().int(), maxTokensPerExecution: z.number().int() });

export const AgentSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    templateId: z.string().nullable(),
    status: z.enum(AGENT_STATUSES),
    executionMode: z.enum(EXECUTION_MODES),
    audience: z.enum(AUDIENCES),
    model: z.string().nullable(),
    instructions: z.string(),
    channelIds: z.array(z.uuid()),
    triggers: z.array(z.enum(TRIGGERS)),
    toolPolicy: ToolPolicySchema,
    createdById: z.uuid().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Agent" });

export type Agent = z.infer<typeof AgentSchema>;
export const AgentEnvelopeSchema = z.object({ agent: AgentSchema }).meta({ id: "AgentEnvelope" });
export const AgentListSchema = z.object({ items: z.array(AgentSchema) }).meta({ id: "AgentList" });

export function serializeAgent(a: AgentRow): Agent {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    templateId: a.templateId,
    status: a.status as Agent["status"],
    executionMode: a.executionMode as Agent["executionMode"],
    audience: a.audience as Agent["audience"],
    model: a.model,
    instructions: a.instructions,
    channelIds: a.channelIds,
    triggers: a.triggers as Agent["triggers"],
    toolPolicy: {
      allow: a.toolPolicy.allow,
      maxSteps: a.toolPolicy.maxSteps,
      maxTokensPerExecution: a.toolPolicy.maxTokensPerExecution ?? DEFAULT_MAX_TOKENS,
    },
    createdById: a.createdById,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/**
 * `data.data.entity` of agent events (spec 2 §6): the listed fields only. Instructions, channels,
 * triggers and the tool policy never leave through events.
 */
export function agentEventEntity(a: AgentRow) {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    status: a.status,
    executionMode: a.executionMode,
    model: a.model,
    audience: a.audience,
    templateId: a.templateId,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/**
 * The fields `changedFields` of `agent.updated` may name: the agent's columns as the API and the
 * event entity spell them (camelCase), never their values.
 */
export const AGENT_FIELDS = [
  "name",
  "description",
  "status",
  "executionMode",
  "audience",
  "model",
  "instructions",
  "channelIds",
  "triggers",
  "toolPolicy",
] as const;
