import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { members } from "./members";
import { messagingChannels } from "./messaging";
import { tenants } from "./tenants";
import { parentRef } from "./columns";

/** What an agent may do: the tool names it may call and its limits (never leaves through events). */
export type AgentToolPolicy = { allow: string[]; maxSteps: number; maxTokensPerExecution: number };

/**
 * An AI agent of a tenant (`/api/v1/agents`): instructions for the model, the messaging channels it
 * watches, what starts it (`triggers`) and what it may do (`toolPolicy`). It acts with the grants
 * of the member who created it (`createdById`), checked again at every send.
 */
export const agents = pgTable(
  "agents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    name: text("name").notNull(),
    description: text("description"),
    templateId: text("template_id"),
    /** `active` or `paused`. */
    status: text("status").notNull(),
    /** `autonomous`, `approval` or `shadow`. */
    executionMode: text("execution_mode").notNull(),
    /** `all`, `unassigned` or `after_hours`. */
    audience: text("audience").notNull(),
    model: text("model"),
    instructions: text("instructions").notNull(),
    channelIds: jsonb("channel_ids").$type<string[]>().notNull(),
    triggers: jsonb("triggers").$type<string[]>().notNull(),
    toolPolicy: jsonb("tool_policy").$type<AgentToolPolicy>().notNull(),
    createdById: uuid("created_by_id").references(() => members.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("agents_tenant_idx").on(t.tenantId, t.createdAt)],
);

/**
 * One run of an agent for one trigger. Queued in the transaction of the change that triggered it
 * (an inbound message, a lead, a deal stage), claimed by the job with SKIP LOCKED, finished once
 * (`completed` or `failed`). `steps` holds tool inputs and outputs: admins only, never in events.
 */
export const agentExecutions = pgTable(
  "agent_executions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    agentId: parentRef("agent_id", () => agents.id),
    /** `inbound_message`, `lead_created`, `deal_stage_changed` or `manual`. */
    triggerType: text("trigger_type").notNull(),
    /** The message, deal or requesting member that started it; with the type, unique per agent. */
    triggerId: text("trigger_id").notNull(),
    channelId: uuid("channel_id"),
    chatId: text("chat_id"),
    dealId: uuid("deal_id"),
    /** `queued`, `running`, `completed`, `failed`. */
    status: text("status").notNull().default("queued"),
    outcome: text("outcome"),
    errorMessage: text("error_message"),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    toolNames: jsonb("tool_names").$type<string[]>().notNull().default([]),
    steps: jsonb("steps").$type<Record<string, unknown>[]>().notNull().default([]),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("agent_executions_trigger_key").on(t.agentId, t.triggerType, t.triggerId),
    index("agent_executions_agent_idx").on(t.tenantId, t.agentId, t.createdAt.desc()),
    index("agent_executions_pending_idx").on(t.createdAt).where(sql`status in ('queued', 'running')`),
  ],
);

/**
 * A message an agent in `approval` mode wants to send, held until a member approves or rejects
 * it; `shadow` executions record theirs here too (`status` `shadow`), never sent.
 */
export const agentApprovals = pgTable(
  "agent_approvals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: parentRef("tenant_id", () => tenants.id),
    agentId: parentRef("agent_id", () => agents.id),
    executionId: parentRef("execution_id", () => agentExecutions.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    chatId: text("chat_id").notNull(),
    text: text("text").notNull(),
    /** `pending`, `approved` (sent or refused by a gate: `ack` says), `rejected`, `shadow`. */
    status: text("status").notNull(),
    ack: jsonb("ack").$type<Record<string, unknown>>(),
    decidedById: uuid("decided_by_id").references(() => members.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("agent_approvals_tenant_idx").on(t.tenantId, t.status, t.createdAt)],
);

/**
 * Chats where agents stand down: a human replied (`human_reply`), an agent handed the chat over
 * (`handover`), or the contact opted out (`opt_out`). No agent runs on a paused chat.
 */
export const agentChatPauses = pgTable(
  "agent_chat_pauses",
  {
    tenantId: parentRef("tenant_id", () => tenants.id),
    channelId: parentRef("channel_id", () => messagingChannels.id),
    chatId: text("chat_id").notNull(),
    reason: text("reason").notNull(),
    pausedAt: timestamp("paused_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.chatId] }), index("agent_chat_pauses_tenant_idx").on(t.tenantId)],
);

export type AgentRow = typeof agents.$inferSelect;
export type AgentExecutionRow = typeof agentExecutions.$inferSelect;
export type AgentApprovalRow = typeof agentApprovals.$inferSelect;
