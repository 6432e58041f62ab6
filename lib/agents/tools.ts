import { type Schema, tool, type ToolSet, zodSchema } from "ai";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { agentApprovals, listings, members, messagingChannels, messagingConversations, type AgentExecutionRow, type AgentRow } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { createDeal, getDeal, updateDeal } from "../deals/deals";
import { transferDeal } from "../deals/transfer";
import { DomainError } from "../errors/domain-errors";
import { getListing } from "../listings/listings";
import { addChatLabel } from "../messaging/labels/mutate-labels";
import { phoneDigitsOf } from "../messaging/chat-id";
import { evaluateSendGates } from "../messaging/send/gates";
import { sendMessage } from "../messaging/send/send-message";
import { ListingSearchQuery, searchListings } from "../search/listing-search";
import { createTask } from "../tasks/tasks";
import { pauseChat } from "./pauses";
import { AGENT_TOOLS, type AgentToolName } from "./tool-names";

export type ToolStep = {
  tool: string;
  status: "ok" | "error" | "refused";
  input: unknown;
  output: unknown;
  at: string;
  ms: number;
};

/** What one execution's tools share: the agent's verb context, the chat, the deal once known, and what happened. */
export type RunState = {
  ctx: MemberCtx;
  agent: AgentRow;
  exec: AgentExecutionRow;
  channelId: string | null;
  chatId: string | null;
  dealId: string | null;
  contactName: string | null;
  hasConversation: boolean;
  replies: number;
  sent: number;
  held: number;
  shadowed: number;
  blocked: string[];
  handedOver: boolean;
  steps: ToolStep[];
};

class ToolRefusal extends Error {}

const noChat = () => new ToolRefusal("this execution has no chat to act in");

/**
 * Wraps a verb as an AI SDK tool: records the step (input, output, timing) for the execution's
 * log, and turns a domain refusal into an `{error}` answer the model can read and adapt to,
 * instead of failing the execution.
 */
function recorded<I>(s: RunState, name: AgentToolName, inputSchema: Schema<I>, run: (input: I) => Promise<unknown>) {
  return tool({
    description: AGENT_TOOLS[name],
    inputSchema,
    execute: async (input: I) => {
      const started = Date.now();
      let output: unknown;
      let status: ToolStep["status"] = "ok";
      try {
        output = await run(input);
      } catch (err) {
        if (!(err instanceof DomainError || err instanceof ToolRefusal || err instanceof z.ZodError)) throw err;
        status = "error";
        output = { error: err instanceof z.ZodError ? z.prettifyError(err) : err.message };
      }
      s.steps.push({ tool: name, status, input, output, at: new Date(started).toISOString(), ms: Date.now() - started });
      return output;
    },
  });
}

/**
 * The tools' input schemas, built once per process. The AI SDK turns a tool's schema into JSON
 * Schema at every model call unless it is given the same `zodSchema` wrapper again (the wrapper
 * keeps its conversion): built per execution, the zod objects and their conversion were about
 * 2 ms of CPU an execution (issue 34, "Agent CPU a step" in docs/decisions.md).
 */
const INPUT = {
  search_listings: zodSchema(
    z.object({
      query: z.string().max(200).optional().describe("Texto livre: código do imóvel, bairro, rua ou título."),
      type: z.enum(["sale", "rental"]).optional(),
      bedrooms: z.number().int().min(0).max(20).optional().describe("Mínimo de quartos."),
      budget: z.number().positive().optional().describe("Preço máximo em reais."),
      neighborhood: z.string().max(120).optional(),
      city: z.string().max(120).optional(),
    }),
  ),
  get_listing: zodSchema(z.object({ listingId: z.uuid() })),
  reply: zodSchema(z.object({ text: z.string().min(1).max(4096).describe("A mensagem ao cliente.") })),
  save_deal: zodSchema(
    z.object({
      contactName: z.string().min(1).max(120).optional(),
      dealType: z.enum(["sale", "rental"]).optional(),
      budget: z.number().positive().optional(),
      bedrooms: z.number().int().min(0).max(20).optional(),
      locations: z.array(z.string().max(120)).max(10).optional(),
      notes: z.string().max(2000).optional().describe("Resumo do que o cliente procura."),
      listingId: z.uuid().optional().describe("Imóvel de interesse."),
    }),
  ),
  create_visit_task: zodSchema(
    z.object({
      dueAt: z.iso.datetime({ offset: true }).describe("Data e hora da visita, ISO 8601 com fuso, por exemplo 2026-12-01T14:00:00-03:00."),
      listingId: z.uuid().optional(),
      notes: z.string().max(2000).optional(),
    }),
  ),
  label_chat: zodSchema(z.object({ labelId: z.string().min(1).max(100) })),
  hand_over: zodSchema(
    z.object({ reason: z.string().max(500).optional(), brokerId: z.uuid().optional().describe("Corretor específico, se o cliente pediu.") }),
  ),
};

async function linkConversation(s: RunState, dealId: string) {
  if (!s.channelId || !s.chatId) return;
  await s.ctx.db
    .update(messagingConversations)
    .set({ primaryDealId: dealId })
    .where(
      and(eq(messagingConversations.tenantId, s.ctx.tenantId), eq(messagingConversations.channelId, s.channelId), eq(messagingConversations.chatId, s.chatId)),
    );
}

/** The tools of the agent's policy (only those: a call to any other is refused by the SDK and recorded). */
export function buildTools(s: RunState): ToolSet {
  const all: Record<AgentToolName, ToolSet[string]> = {
    search_listings: recorded(s, "search_listings", INPUT.search_listings, async (i) => {
      // Only public listings: the agent speaks to the public.
      // The query schema reads URL text: numbers go in as strings.
      const q = ListingSearchQuery.parse({
        ...(i.query ? { query: i.query } : {}),
        ...(i.type ? { type: i.type } : {}),
        ...(i.bedrooms !== undefined ? { bedrooms: String(i.bedrooms) } : {}),
        ...(i.budget !== undefined ? { budget: String(i.budget) } : {}),
        ...(i.neighborhood ? { neighborhood: i.neighborhood } : {}),
        ...(i.city ? { city: i.city } : {}),
        visibility: "public",
        pageSize: "5",
        includeNetworks: "false",
      });
      const page = await searchListings(s.ctx, q);
      // A price the tenant keeps private is not said to the public (nor to the model).
      const ids = page.items.map((l) => l.id);
      const hidden = new Set(
        ids.length
          ? (
              await s.ctx.db
                .select({ id: listings.id })
                .from(listings)
                .where(and(eq(listings.tenantId, s.ctx.tenantId), inArray(listings.id, ids), eq(listings.priceVisibility, "private")))
            ).map((r) => r.id)
          : [],
      );
      return {
        total: page.total,
        items: page.items.map((l) => ({
          id: l.id,
          listingCode: l.listingCode,
          title: l.title,
          type: l.type,
          price: hidden.has(l.id) ? null : l.price,
          neighborhood: l.location.neighborhood,
          city: l.location.city,
          area: l.features.area,
          bedrooms: l.features.rooms,
          bathrooms: l.features.bathrooms,
          garageSpots: l.features.garageSpots,
        })),
      };
    }),
    get_listing: recorded(s, "get_listing", INPUT.get_listing, async ({ listingId }) => {
      const l = await getListing(s.ctx, listingId);
      if (l.visibility !== "public") throw new ToolRefusal("this listing is not public");
      return {
        id: l.id,
        listingCode: l.listingCode,
        title: l.title,
        description: l.description?.slice(0, 3000) ?? null,
        type: l.type,
        price: l.priceVisibility === "public" ? l.price : null,
        currency: l.currency,
      };
    }),
    reply: recorded(s, "reply", INPUT.reply, async ({ text }) => reply(s, text)),
    save_deal: recorded(s, "save_deal", INPUT.save_deal, async (i) => saveDeal(s, i)),
    create_visit_task: recorded(s, "create_visit_task", INPUT.create_visit_task, async (i) => {
      if (!s.dealId) throw new ToolRefusal("save the deal first (save_deal)");
      const t = await createTask(s.ctx, {
        title: "Visita agendada pelo assistente",
        type: "visit",
        dealId: s.dealId,
        listingId: i.listingId,
        dueAt: i.dueAt,
        notes: i.notes,
      });
      return { taskId: t.id, dueAt: t.dueAt, assigneeId: t.assigneeId };
    }),
    label_chat: recorded(s, "label_chat", INPUT.label_chat, async ({ labelId }) => {
      if (!s.channelId || !s.chatId) throw noChat();
      const r = await addChatLabel(s.ctx, { channelId: s.channelId, chatId: s.chatId, labelId });
      return { labels: r.labels };
    }),
    hand_over: recorded(s, "hand_over", INPUT.hand_over, async (i) => handOver(s, i)),
  };
  const allowed = new Set(s.agent.toolPolicy.allow);
  return Object.fromEntries(Object.entries(all).filter(([name]) => allowed.has(name)));
}

/** By execution mode: `autonomous` sends through the send verb and its gates; `approval` holds; `shadow` records. */
async function reply(s: RunState, text: string) {
  if (!s.channelId || !s.chatId) throw noChat();
  s.replies++;
  const mode = s.hasConversation ? "reply" : "send";
  if (s.agent.executionMode === "autonomous") {
    const ack = await sendMessage(s.ctx, {
      mode,
      channelId: s.channelId,
      chatId: s.chatId,
      content: { kind: "text", text },
      ...(s.dealId ? { dealId: s.dealId } : {}),
      // A retried execution answers the first send's ack instead of sending twice.
      idempotencyKey: `agent:${s.exec.id}:${s.replies}`,
    });
    if (ack.status === "sent" || ack.status === "queued") {
      s.sent++;
      s.hasConversation = true;
    } else s.blocked.push(ack.reason ?? ack.status);
    return { status: ack.status, reason: ack.reason };
  }
  // Held or recorded messages meet the gates now too: one the gates would refuse is not kept.
  const gates = await evaluateSendGates(s.ctx, { channelId: s.channelId, chatId: s.chatId, mode });
  if (!gates.ok) {
    s.blocked.push(gates.reason);
    return { status: gates.status, reason: gates.reason };
  }
  const status = s.agent.executionMode === "approval" ? "pending" : "shadow";
  const [a] = await s.ctx.db
    .insert(agentApprovals)
    .values({ tenantId: s.ctx.tenantId, agentId: s.agent.id, executionId: s.exec.id, channelId: s.channelId, chatId: gates.chatId, text, status })
    .returning({ id: agentApprovals.id });
  if (status === "pending") s.held++;
  else s.shadowed++;
  return status === "pending" ? { status: "held_for_approval", approvalId: a.id } : { status: "recorded_shadow" };
}

async function saveDeal(
  s: RunState,
  i: { contactName?: string; dealType?: "sale" | "rental"; budget?: number; bedrooms?: number; locations?: string[]; notes?: string; listingId?: string },
) {
  const custom: Record<string, unknown> = {};
  if (i.budget !== undefined) custom.budget = i.budget;
  if (i.bedrooms !== undefined) custom.bedrooms = i.bedrooms;
  if (i.locations?.length) custom.locations = i.locations;
  if (i.notes) custom.additionalNotes = i.notes;
  if (i.listingId) custom.leadListings = [{ listingId: i.listingId }];
  if (s.dealId) {
    const data: Record<string, unknown> = {};
    if (Object.keys(custom).length) data.custom = custom;
    if (i.dealType) data.dealType = i.dealType;
    if (!Object.keys(data).length) return { dealId: s.dealId, changed: false };
    const d = await updateDeal(s.ctx, { id: s.dealId, body: { id: s.dealId, data } });
    return { dealId: d.id, stage: d.stage };
  }
  const digits = s.chatId ? phoneDigitsOf(s.chatId) : null;
  if (!digits) throw new ToolRefusal("the chat has no phone to make the deal's contact from");
  const name = i.contactName ?? s.contactName ?? "Contato WhatsApp";
  const dealType = i.dealType ?? "sale";
  const d = await createDeal(s.ctx, {
    title: `${name} (WhatsApp)`,
    dealType,
    contacts: [{ name, phone: `+${digits}`, role: dealType === "rental" ? "tenant" : "buyer" }],
    ...(Object.keys(custom).length ? { custom } : {}),
    source: "agent",
  });
  s.dealId = d.id;
  await linkConversation(s, d.id);
  return { dealId: d.id, stage: d.stage, created: true };
}

/**
 * Hands the chat to a person: the broker asked for, else the deal's, else the channel's owner
 * takes the deal (`distribution.transferred` when it changes hands) and the chat, and agents stop
 * there (a pause the member lifts by answering; no agent runs on it again).
 */
async function handOver(s: RunState, i: { reason?: string; brokerId?: string }) {
  const { db, tenantId } = s.ctx;
  let brokerId: string | null = null;
  if (i.brokerId) {
    const [m] = await db
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.id, i.brokerId), eq(members.tenantId, tenantId), eq(members.active, true)))
      .limit(1);
    if (!m) throw new ToolRefusal(`no active member ${i.brokerId}`);
    brokerId = m.id;
  }
  if (!brokerId && s.dealId) brokerId = (await getDeal(s.ctx, s.dealId)).assignedToId ?? null;
  if (!brokerId && s.channelId) {
    const [c] = await db.select({ owner: messagingChannels.ownerId }).from(messagingChannels).where(eq(messagingChannels.id, s.channelId)).limit(1);
    brokerId = c?.owner ?? null;
  }
  if (s.dealId && brokerId) await transferDeal(s.ctx, { id: s.dealId, body: { newOwnerId: brokerId, transferReason: "agent_handover" } });
  if (s.channelId && s.chatId) {
    await db
      .update(messagingConversations)
      .set({ assignedToId: brokerId })
      .where(
        and(eq(messagingConversations.tenantId, tenantId), eq(messagingConversations.channelId, s.channelId), eq(messagingConversations.chatId, s.chatId)),
      );
    await pauseChat(db, { tenantId, channelId: s.channelId, chatId: s.chatId, reason: "handover" });
  }
  s.handedOver = true;
  return { handedOver: true, brokerId };
}
