import { and, eq, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import { messagingConversations as C, messagingLabels } from "../../../db/schema";
import { inTenantTransaction } from "../../../db/transaction";
import type { MemberCtx } from "../../context/verb-context";
import { accessibleChannelById, channelRefusal } from "../access";
import { readPolicy, ReadPolicySchema } from "../conversations/policy";
import { adapterFor } from "../providers/adapter-for";
import type { ProviderLabel } from "../providers/types";

const ChannelId = z
  .uuid()
  .transform((v) => v.toLowerCase())
  .meta({ description: "A channel the key's member may use." });
export const ListLabelsQuery = z.strictObject({ channelId: ChannelId }).meta({ id: "ListMessagingLabelsQuery" });
export const LabelAssignmentsQuery = z
  .strictObject({ channelId: ChannelId, labelId: z.string().min(1).max(100).optional().meta({ description: "Only chats carrying this label." }) })
  .meta({ id: "MessagingLabelAssignmentsQuery" });

export type LabelRejection = "channel_forbidden" | "not_found_or_inaccessible";

const channelRejection = z.enum(["channel_forbidden", "not_found_or_inaccessible"]).nullable().meta({
  description:
    "Set (and nothing else returned) when the key's member may not use the channel: `channel_forbidden` for a channel of the tenant, `not_found_or_inaccessible` otherwise.",
});

const LabelSchema = z.object({ id: z.string(), name: z.string(), color: z.string().nullable() }).meta({ id: "MessagingLabel" });

/** The answer of `listLabels`. */
export const LabelsSchema = z
  .object({
    policy: ReadPolicySchema,
    channelId: z.uuid(),
    source: z.enum(["provider", "stored"]).nullable(),
    labels: z.array(LabelSchema),
    rejection: channelRejection,
  })
  .meta({ id: "MessagingLabels" });

/** The answer of `labelAssignments`. */
export const LabelAssignmentsSchema = z
  .object({
    policy: ReadPolicySchema,
    channelId: z.uuid(),
    assignments: z.record(z.string(), z.array(z.object({ id: z.string(), name: z.string().nullable(), color: z.string().nullable() }))),
    rejection: channelRejection,
  })
  .meta({ id: "MessagingLabelAssignments" });
const LIVE_BUDGET_MS = 2000;

/**
 * `GET /api/v1/messaging/labels`: the channel's labels, read from the gateway (and stored) within a
 * short budget; when the gateway does not answer, the labels last stored from its webhooks, with
 * `source: "stored"`. A channel the member may not use answers no labels and a `rejection`.
 */
export async function listLabels(ctx: MemberCtx, q: z.output<typeof ListLabelsQuery>): Promise<z.infer<typeof LabelsSchema>> {
  const policy = readPolicy([]);
  const channel = await accessibleChannelById(ctx.db, ctx.actor, q.channelId);
  if (!channel) return { policy, channelId: q.channelId, source: null, labels: [], rejection: await channelRefusal(ctx.db, ctx.actor, q.channelId) };
  const adapter = adapterFor(channel);
  let live: ProviderLabel[] | null = null;
  if (adapter.supportsLabels && channel.connectionState === "connected") {
    live = await adapter.labels(AbortSignal.timeout(LIVE_BUDGET_MS)).catch(() => null);
  }
  if (live) {
    const fresh = live;
    await inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
      const ids = fresh.map((l) => l.id);
      await tx
        .delete(messagingLabels)
        .where(
          and(
            eq(messagingLabels.tenantId, ctx.tenantId),
            eq(messagingLabels.channelId, channel.id),
            ids.length ? notInArray(messagingLabels.labelId, ids) : undefined,
          ),
        );
      for (const l of fresh) {
        await tx
          .insert(messagingLabels)
          .values({ tenantId: ctx.tenantId, channelId: channel.id, labelId: l.id, name: l.name, color: l.color })
          .onConflictDoUpdate({ target: [messagingLabels.channelId, messagingLabels.labelId], set: { name: l.name, color: l.color } });
      }
    });
  }
  const labels = live ?? (await storedLabels(ctx, channel.id));
  return {
    policy,
    channelId: channel.id,
    source: live ? ("provider" as const) : ("stored" as const),
    labels: labels.map((l) => ({ id: l.id, name: l.name, color: l.color })).sort((a, b) => a.name.localeCompare(b.name, "pt-BR") || a.id.localeCompare(b.id)),
    rejection: null,
  };
}

async function storedLabels(ctx: MemberCtx, channelId: string): Promise<ProviderLabel[]> {
  const rows = await ctx.db
    .select()
    .from(messagingLabels)
    .where(and(eq(messagingLabels.tenantId, ctx.tenantId), eq(messagingLabels.channelId, channelId)));
  return rows.map((r) => ({ id: r.labelId, name: r.name, color: r.color }));
}

/**
 * `GET /api/v1/messaging/labels/assignments`: `{chatId: [label...]}` for the channel's labelled
 * chats, keyed by the same `chatId` as the conversation list (the phone form when the `@lid` mapping
 * is known). Chats that privacy hides are absent, as in the list.
 */
export async function labelAssignments(ctx: MemberCtx, q: z.output<typeof LabelAssignmentsQuery>): Promise<z.infer<typeof LabelAssignmentsSchema>> {
  const policy = readPolicy([]);
  const channel = await accessibleChannelById(ctx.db, ctx.actor, q.channelId);
  if (!channel) return { policy, channelId: q.channelId, assignments: {}, rejection: await channelRefusal(ctx.db, ctx.actor, q.channelId) };
  const state = sql`coalesce(${C.privacyState}, '')`;
  const visible = channel.privacyMode === "whitelist" ? sql`${state} in ('whitelisted', 'pending')` : sql`${state} <> 'hidden'`;
  const rows = await ctx.db
    .select({ chatId: C.chatId, labels: C.labels })
    .from(C)
    .where(
      and(
        eq(C.tenantId, ctx.tenantId),
        eq(C.channelId, channel.id),
        visible,
        sql`jsonb_array_length(${C.labels}) > 0`,
        q.labelId ? sql`${C.labels} @> jsonb_build_array(${q.labelId}::text)` : undefined,
      ),
    )
    .orderBy(C.chatId);
  const byId = new Map((await storedLabels(ctx, channel.id)).map((l) => [l.id, l]));
  const assignments: Record<string, { id: string; name: string | null; color: string | null }[]> = {};
  for (const r of rows) {
    assignments[r.chatId] = r.labels.map((id) => ({ id, name: byId.get(id)?.name ?? null, color: byId.get(id)?.color ?? null }));
  }
  return { policy, channelId: channel.id, assignments, rejection: null };
}
