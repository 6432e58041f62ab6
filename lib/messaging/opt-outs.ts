import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { messagingChannels, messagingOptOuts, type MessagingChannelRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { PhoneSchema } from "../schemas/phone";
import { EmailAddressSchema } from "./email/settings";
import type { MemberCtx } from "../context/verb-context";
import { invalid, notFound } from "../errors/domain-errors";
import { itemsSchema } from "../schemas/paging";
import { phoneDigitsOf } from "./chat-id";
import { emailAddressOfChatId } from "./email/address";

/**
 * One handle per row: an E.164 phone (WhatsApp, web chat), an e-mail address (e-mail channels), or
 * an Instagram/Messenger chat (`{channelId, chatId}`: a page-scoped id has no phone or address, and
 * means something only on its page's channel).
 */
type Handles = { phone?: string; email?: string; channelId?: string; chatId?: string };
const oneHandle = (v: Handles, ctx: z.RefinementCtx) => {
  if ((v.channelId === undefined) !== (v.chatId === undefined))
    ctx.addIssue({ code: "custom", path: [v.channelId === undefined ? "channelId" : "chatId"], message: "`channelId` and `chatId` go together" });
  const given = [v.phone, v.email, v.channelId ?? v.chatId].filter((x) => x !== undefined).length;
  if (given !== 1) ctx.addIssue({ code: "custom", path: ["phone"], message: "send exactly one of `phone`, `email` or `channelId` with `chatId`" });
};
const ChannelIdSchema = z.uuid().meta({ description: "An Instagram or Messenger channel of the tenant (with `chatId`)." });
const PageScopedIdSchema = z
  .string()
  .regex(/^\d{1,64}$/, "must be the page-scoped id of an Instagram or Messenger chat (digits)")
  .meta({ description: "The chat's page-scoped id, as `conversations[].key.chatId` on that channel." });
export const AddOptOutSchema = z
  .strictObject({
    phone: PhoneSchema.optional(),
    email: EmailAddressSchema.optional().meta({ description: "An e-mail address (e-mail channels check it)." }),
    channelId: ChannelIdSchema.optional(),
    chatId: PageScopedIdSchema.optional(),
    reason: z.string().trim().max(500).optional(),
  })
  .superRefine(oneHandle)
  .meta({ id: "AddOptOut" });
export const RemoveOptOutQuery = z
  .strictObject({
    phone: PhoneSchema.optional(),
    email: EmailAddressSchema.optional(),
    channelId: ChannelIdSchema.optional(),
    chatId: PageScopedIdSchema.optional(),
  })
  .superRefine(oneHandle);
export const OptOutSchema = z
  .object({
    phone: z.string().nullable().meta({ description: "The E.164 phone; null for another kind of entry." }),
    email: z.string().nullable().meta({ description: "The e-mail address; null for another kind of entry." }),
    channelId: z.string().nullable().meta({ description: "The Instagram or Messenger channel of a chat entry; else null." }),
    chatId: z.string().nullable().meta({ description: "The page-scoped chat id of a chat entry; else null." }),
    reason: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "OptOut" });

const CHAT_PREFIX = "chat:";
/** The stored handle of an Instagram/Messenger chat: page-scoped ids are only unique on their channel. */
export const chatOptOutHandle = (channelId: string, chatId: string) => `${CHAT_PREFIX}${channelId.toLowerCase()}:${chatId}`;

/**
 * The opt-out handle a chat is checked and recorded under: the phone of a phone-form WhatsApp id,
 * the address of an e-mail chat, the chat itself on Instagram/Messenger; null for groups, web chat
 * (checked by the phone its visitor left) and ids that say nothing.
 */
export function optOutHandleOfChat(channel: Pick<MessagingChannelRow, "id" | "provider" | "transport">, chatId: string): string | null {
  if (channel.provider === "meta") return chatOptOutHandle(channel.id, chatId);
  if (channel.transport === "email") return emailAddressOfChatId(chatId);
  if (channel.transport === "web_chat" || chatId.endsWith("@g.us")) return null;
  const digits = phoneDigitsOf(chatId);
  return digits ? `+${digits}` : null;
}

/** `listOptOuts`. */
export const OptOutListSchema = itemsSchema(OptOutSchema);

// The column holds the handle: an E.164 phone, an e-mail address (it has an `@`), or `chat:<channelId>:<chatId>`.
const present = (r: typeof messagingOptOuts.$inferSelect): z.infer<typeof OptOutSchema> => {
  const chat = r.phone.startsWith(CHAT_PREFIX) ? r.phone.slice(CHAT_PREFIX.length).split(":") : null;
  const email = !chat && r.phone.includes("@");
  return {
    phone: chat || email ? null : r.phone,
    email: email ? r.phone : null,
    channelId: chat ? chat[0] : null,
    chatId: chat ? chat.slice(1).join(":") : null,
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
  };
};

/** The handle of an add or remove body; a chat must be on an Instagram or Messenger channel of the tenant. */
export async function handleOf(ctx: MemberCtx, v: Handles): Promise<string> {
  if (v.phone !== undefined) return v.phone;
  if (v.email !== undefined) return v.email;
  const [c] = await ctx.db
    .select({ id: messagingChannels.id })
    .from(messagingChannels)
    .where(and(eq(messagingChannels.id, v.channelId!), eq(messagingChannels.tenantId, ctx.tenantId), eq(messagingChannels.provider, "meta")))
    .limit(1);
  if (!c)
    throw invalid(
      `\`channelId\`: ${v.channelId} is not an Instagram or Messenger channel of this tenant (a chat entry is for those; use \`phone\` or \`email\` for the others).`,
    );
  return chatOptOutHandle(c.id, v.chatId!);
}

export async function listOptOuts(ctx: MemberCtx): Promise<z.infer<typeof OptOutListSchema>> {
  const rows = await ctx.db.select().from(messagingOptOuts).where(eq(messagingOptOuts.tenantId, ctx.tenantId)).orderBy(asc(messagingOptOuts.createdAt));
  return { items: rows.map(present) };
}

/** Adding a handle twice keeps the first entry (and its reason). */
export async function addOptOut(ctx: MemberCtx, body: unknown) {
  const parsed = AddOptOutSchema.parse(body);
  const data = { phone: await handleOf(ctx, parsed), reason: parsed.reason };
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await tx
      .insert(messagingOptOuts)
      .values({ tenantId: ctx.tenantId, phone: data.phone, reason: data.reason ?? null })
      .onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(messagingOptOuts)
      .where(and(eq(messagingOptOuts.tenantId, ctx.tenantId), eq(messagingOptOuts.phone, data.phone)));
    return present(row);
  });
}

/** `DELETE .../opt-outs?phone=`, `?email=` or `?channelId=&chatId=` (a query parsed by `RemoveOptOutQuery`). */
export async function removeOptOut(ctx: MemberCtx, query: z.infer<typeof RemoveOptOutQuery>) {
  const parsed = { data: { phone: await handleOf(ctx, query) } };
  const gone = await inTenantTransaction(ctx.db, ctx.tenantId, (tx) =>
    tx
      .delete(messagingOptOuts)
      .where(and(eq(messagingOptOuts.tenantId, ctx.tenantId), eq(messagingOptOuts.phone, parsed.data.phone)))
      .returning(),
  );
  if (!gone.length) throw notFound(`No opt-out for ${query.phone ?? query.email ?? `chat ${query.chatId} of channel ${query.channelId}`}.`);
}

/** The outreach_safety lookup: is this handle (E.164 phone, lower-case e-mail address, chat handle) on the tenant's opt-out list? */
export async function isOptedOut(db: MemberCtx["db"], tenantId: string, e164: string): Promise<boolean> {
  const [r] = await db
    .select({ phone: messagingOptOuts.phone })
    .from(messagingOptOuts)
    .where(and(eq(messagingOptOuts.tenantId, tenantId), eq(messagingOptOuts.phone, e164)))
    .limit(1);
  return Boolean(r);
}

/**
 * Is a contact of this deal on the opt-out list by phone or e-mail? An Instagram or Messenger chat
 * linked to a deal is that contact's conversation: a contact who opted out on WhatsApp or by e-mail
 * is not messaged there either.
 */
export async function dealContactOptedOut(db: DbOrTx, tenantId: string, dealId: string): Promise<boolean> {
  const rows = await db.execute(sql`
    select 1 from deal_contacts dc
    join contacts c on c.id = dc.contact_id and c.tenant_id = ${tenantId}
    join messaging_opt_outs o on o.tenant_id = ${tenantId} and (o.phone = c.phone or o.phone = lower(c.email))
    where dc.deal_id = ${dealId}
    limit 1`);
  return rowsOf(rows).length > 0;
}
