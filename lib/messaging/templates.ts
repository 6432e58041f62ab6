import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { messagingChannels, messagingTemplates } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { invalid, notFound } from "../errors/domain-errors";
import { itemsSchema } from "../schemas/paging";

/** Providers whose adapter sends approved templates (`supportsTemplates`). */
const TEMPLATE_PROVIDERS = new Set(["whatsapp_cloud"]);
export const TEMPLATE_STATUSES = ["approved", "pending", "rejected", "paused"] as const;

export const CreateTemplateSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .regex(/^[a-z0-9_]{1,512}$/, "must be the template's name as approved by WhatsApp: lowercase letters, digits and underscores")
      .meta({ example: "boas_vindas" }),
    language: z
      .string()
      .trim()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, "must be a WhatsApp language code such as pt_BR or en_US")
      .meta({ example: "pt_BR" }),
    status: z.enum(TEMPLATE_STATUSES).default("approved").meta({ description: "Only `approved` templates can be sent." }),
  })
  .meta({ id: "CreateMessagingTemplate" });

export const MessagingTemplateSchema = z
  .object({ id: z.uuid(), channelId: z.uuid(), name: z.string(), language: z.string(), status: z.enum(TEMPLATE_STATUSES), createdAt: z.string() })
  .meta({ id: "MessagingTemplate" });

/** `listTemplates`. */
export const MessagingTemplateListSchema = itemsSchema(MessagingTemplateSchema);

type Row = typeof messagingTemplates.$inferSelect;
const present = (r: Row) => ({
  id: r.id,
  channelId: r.channelId,
  name: r.name,
  language: r.language,
  status: r.status as (typeof TEMPLATE_STATUSES)[number],
  createdAt: r.createdAt.toISOString(),
});

async function templateChannel(ctx: MemberCtx, id: string) {
  const [c] = await ctx.db
    .select({ id: messagingChannels.id, provider: messagingChannels.provider })
    .from(messagingChannels)
    .where(and(eq(messagingChannels.id, id), eq(messagingChannels.tenantId, ctx.tenantId)))
    .limit(1);
  if (!c) throw notFound(`Messaging channel ${id} not found.`);
  return c;
}

/** `GET .../{id}/templates`: the channel's registered templates (none on free-text-only channels). */
export async function listTemplates(ctx: MemberCtx, channelId: string): Promise<z.infer<typeof MessagingTemplateListSchema>> {
  await templateChannel(ctx, channelId);
  const rows = await ctx.db
    .select()
    .from(messagingTemplates)
    .where(and(eq(messagingTemplates.tenantId, ctx.tenantId), eq(messagingTemplates.channelId, channelId)))
    .orderBy(asc(messagingTemplates.name), asc(messagingTemplates.language));
  return { items: rows.map(present) };
}

/**
 * `POST .../{id}/templates`: registers a template approved on the provider (WhatsApp Cloud message
 * templates are approved by Meta, then named here by name and language). A channel whose provider
 * cannot send templates refuses with `channel_send_unsupported`; a name and language already
 * registered on the channel is updated (its status).
 */
export async function createTemplate(ctx: MemberCtx, { id, body }: { id: string; body: unknown }) {
  const data = CreateTemplateSchema.parse(body);
  const c = await templateChannel(ctx, id);
  if (!TEMPLATE_PROVIDERS.has(c.provider))
    throw invalid(`Channels of provider '${c.provider}' send free text only; templates are for WhatsApp Cloud channels.`, "channel_send_unsupported");
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const [row] = await tx
      .insert(messagingTemplates)
      .values({ tenantId: ctx.tenantId, channelId: id, name: data.name, language: data.language, status: data.status })
      .onConflictDoUpdate({ target: [messagingTemplates.channelId, messagingTemplates.name, messagingTemplates.language], set: { status: data.status } })
      .returning();
    return present(row);
  });
}

export async function deleteTemplate(ctx: MemberCtx, { id, templateId }: { id: string; templateId: string }) {
  await templateChannel(ctx, id);
  const gone = await inTenantTransaction(ctx.db, ctx.tenantId, (tx) =>
    tx
      .delete(messagingTemplates)
      .where(and(eq(messagingTemplates.id, templateId), eq(messagingTemplates.channelId, id), eq(messagingTemplates.tenantId, ctx.tenantId)))
      .returning({ id: messagingTemplates.id }),
  );
  if (!gone.length) throw notFound(`Template ${templateId} not found on this channel.`);
}
