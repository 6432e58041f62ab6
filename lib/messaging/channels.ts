import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { members, messagingChannelGrants, messagingChannels, type MessagingChannelRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { MemberCtx } from "../context/verb-context";
import { invalid, notFound } from "../errors/domain-errors";
import { logger } from "../log/logger";
import { itemsSchema } from "../schemas/paging";
import { assertGatewayUrl, gatewayUrlProblem } from "./gateway-url";
import { adapterFor, credentialsOf } from "./providers/adapter-for";
import { CONNECTION_STATES, PROVIDERS, TRANSPORTS } from "./providers/types";
import { EmailAddressSchema, emailChannelInput, EmailSettingsSchema, presentEmailSettings, SmtpInputSchema, updatedEmailCredentials } from "./email/settings";
import { seal } from "./secret-box";
import { insertWebChatChannel, isWebChatBody, WEB_CHAT_PROVIDER } from "./web-chat/create-channel";

const BaseUrlSchema = z
  .string()
  .max(2000)
  .superRefine((v, ctx) => {
    const problem = gatewayUrlProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .meta({ description: "The gateway's base URL (WAHA server, or the Graph API base for WhatsApp Cloud).", example: "https://waha.example.com" });

const fields = {
  name: z.string().trim().min(1).max(120),
  transport: z.enum(TRANSPORTS),
  provider: z
    .enum(PROVIDERS)
    .meta({ description: "`waha` (WhatsApp Web session through a WAHA-compatible gateway) or `whatsapp_cloud` (WhatsApp Cloud API)." }),
  baseUrl: BaseUrlSchema,
  apiKey: z.string().min(1).max(2000).meta({ description: "Gateway key (WAHA `X-Api-Key`) or Cloud API access token. Stored encrypted; never returned." }),
  sessionName: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .meta({ description: "WAHA session name, or the Cloud API phone number id. Stored encrypted; never returned." }),
  ownerId: z.uuid().transform((v) => v.toLowerCase()),
  privacyMode: z.enum(["off", "whitelist"]),
  mock: z.boolean(),
};

/** Which transports each provider carries. */
const PROVIDER_TRANSPORTS: Record<(typeof PROVIDERS)[number], readonly string[]> = {
  waha: ["whatsapp"],
  whatsapp_cloud: ["whatsapp_cloud"],
  web_chat: ["web_chat"],
  smtp: ["email"],
  meta: ["instagram", "facebook_messenger"],
};

/** Transports listed by the spec that have no adapter yet: refused at creation, with this reason. */
const WITHOUT_ADAPTER: Record<string, string> = {
  tiktok: "TikTok has no adapter yet",
  voip: "VoIP has no adapter yet",
};

export const CreateMessagingChannelSchema = z
  .strictObject({
    ...fields,
    ownerId: fields.ownerId.optional().meta({ description: "Member who owns the channel (default: the key's member); the owner always has access." }),
    privacyMode: fields.privacyMode.default("off"),
    mock: fields.mock.default(false),
    appSecret: z.string().min(16).max(200).optional().meta({
      description:
        "Graph providers (`whatsapp_cloud`, `meta`) only: the Meta app's secret, which Meta signs webhooks with; it becomes the channel's HMAC secret (default: a generated one). Stored encrypted.",
    }),
  })
  .superRefine((v, ctx) => {
    if (v.appSecret !== undefined && v.provider !== "whatsapp_cloud" && v.provider !== "meta")
      ctx.addIssue({ code: "custom", path: ["appSecret"], message: "only Graph providers (`whatsapp_cloud`, `meta`) sign with an app secret" });
    if (v.provider === "smtp")
      ctx.addIssue({ code: "custom", path: ["provider"], message: "e-mail channels send `address` and `smtp` (see CreateEmailChannel)" });
    else if (!PROVIDER_TRANSPORTS[v.provider].includes(v.transport)) {
      ctx.addIssue({
        code: "custom",
        path: ["transport"],
        message: `provider '${v.provider}' carries ${PROVIDER_TRANSPORTS[v.provider].map((t) => `'${t}'`).join(", ")} only`,
      });
    }
  })
  .meta({ id: "CreateMessagingChannel" });

export const UpdateMessagingChannelSchema = z
  .strictObject({
    name: fields.name,
    baseUrl: fields.baseUrl,
    apiKey: fields.apiKey,
    sessionName: fields.sessionName,
    ownerId: fields.ownerId,
    privacyMode: fields.privacyMode,
    mock: fields.mock,
    address: EmailAddressSchema.meta({ description: "E-mail channels only: the channel's address." }),
    smtp: SmtpInputSchema.meta({ description: "E-mail channels only: the SMTP settings, sent whole (leave `password` out to keep the saved one)." }),
  })
  .partial()
  .meta({ id: "UpdateMessagingChannel" });

export const MessagingChannelSettingsSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    transport: z.enum(TRANSPORTS),
    provider: z.enum(PROVIDERS),
    gatewayHost: z.string().meta({
      description:
        "The host (and port) of the gateway's `baseUrl`, e.g. `waha.example.com`. The base URL itself is write-only: its path can hold a gateway instance or token.",
      example: "waha.example.com",
    }),
    ownerId: z.uuid().nullable(),
    privacyMode: z.enum(["off", "whitelist"]),
    mock: z.boolean(),
    connectionState: z.enum(CONNECTION_STATES).meta({ description: "Kept from the gateway's session status events (and checked once at creation)." }),
    grants: z.array(z.uuid()).meta({ description: "Members granted access besides the owner." }),
    webhook: z
      .object({
        url: z.string().meta({ description: "Configure this URL on the gateway as its webhook." }),
        hmacSecret: z.string().meta({
          description:
            "The HMAC key the gateway signs with (WAHA `X-Webhook-Hmac`, SHA-512; Cloud `X-Hub-Signature-256`); for e-mail, the secret the inbound-parse service sends (`X-Webhook-Secret`, Bearer or Basic auth password).",
        }),
      })
      .optional()
      .meta({ description: "Only in the answer that creates the channel: shown this once." }),
    email: EmailSettingsSchema.optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "MessagingChannelSettings" });

export type MessagingChannelSettings = z.infer<typeof MessagingChannelSettingsSchema>;

/** `listMessagingChannelSettings`. */
export const MessagingChannelSettingsListSchema = itemsSchema(MessagingChannelSettingsSchema);

const newChannelToken = () => `msg_${randomBytes(24).toString("base64url")}`;
const newHmacSecret = () => randomBytes(32).toString("base64url");

async function assertMember(db: DbOrTx, tenantId: string, ids: string[], field: string) {
  if (!ids.length) return;
  const found = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.tenantId, tenantId), inArray(members.id, ids)));
  const known = new Set(found.map((m) => m.id));
  const missing = ids.find((id) => !known.has(id));
  if (missing) throw invalid(`body field \`${field}\`: no member ${missing} in this tenant.`);
}

/** `POST /api/v1/settings/messaging-channels`: answers the webhook URL and HMAC secret this once. */
export async function createMessagingChannel(ctx: MemberCtx, input: { body: unknown; origin: string }): Promise<MessagingChannelSettings> {
  if (isWebChatBody(input.body)) {
    const row = await insertWebChatChannel(ctx, input.body, (tx, ownerId) => assertMember(tx, ctx.tenantId, [ownerId], "ownerId"));
    return present(ctx.db, row);
  }
  const transport = (input.body as { transport?: unknown } | null)?.transport;
  if (typeof transport === "string" && WITHOUT_ADAPTER[transport]) {
    throw invalid(`body field \`transport\`: '${transport}' cannot be connected: ${WITHOUT_ADAPTER[transport]}.`, "transport_unsupported");
  }
  const data = transport === "email" ? await emailChannelInput(input.body) : await gatewayChannelInput(input.body);
  const ownerId = data.ownerId ?? ctx.actor.userId;
  // Meta signs Graph webhooks with the app's secret, which we cannot choose: it is given, or generated for the others.
  const secret = ("appSecret" in data && data.appSecret) || newHmacSecret();
  const row = await inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    await assertMember(tx, ctx.tenantId, [ownerId], "ownerId");
    const [r] = await tx
      .insert(messagingChannels)
      .values({
        tenantId: ctx.tenantId,
        name: data.name,
        transport: data.transport,
        provider: data.provider,
        baseUrl: data.baseUrl.replace(/\/+$/, ""),
        credentials: seal(JSON.stringify(data.credentials)),
        webhookSecret: seal(secret),
        channelToken: newChannelToken(),
        ownerId,
        privacyMode: data.privacyMode,
        mock: data.mock,
      })
      .returning();
    return r;
  });
  const checked = await probeConnection(ctx.db, row);
  return { ...(await present(ctx.db, checked)), webhook: { url: `${input.origin}/api/webhooks/messaging/${row.channelToken}`, hmacSecret: secret } };
}

async function gatewayChannelInput(body: unknown) {
  const data = CreateMessagingChannelSchema.parse(body);
  await assertGatewayUrl(data.baseUrl);
  return { ...data, credentials: { apiKey: data.apiKey, sessionName: data.sessionName } };
}

/**
 * One status call at creation (2 s) so a working gateway shows `connected` at once; afterwards
 * the state follows the gateway's `session.status` webhooks. A gateway that does not answer
 * leaves the channel `draft` (never configured) or `error`.
 */
async function probeConnection(db: DbOrTx, row: MessagingChannelRow): Promise<MessagingChannelRow> {
  let state: string;
  try {
    state = await adapterFor(row).status(AbortSignal.timeout(2000));
  } catch (err) {
    logger().info({ err: (err as Error).message, channelId: row.id }, "messaging channel: gateway status check failed");
    state = "error";
  }
  const [r] = await db.update(messagingChannels).set({ connectionState: state }).where(eq(messagingChannels.id, row.id)).returning();
  return r ?? row;
}

async function rowInTenant(db: DbOrTx, tenantId: string, id: string): Promise<MessagingChannelRow> {
  const [row] = await db
    .select()
    .from(messagingChannels)
    .where(and(eq(messagingChannels.id, id), eq(messagingChannels.tenantId, tenantId)))
    .limit(1);
  if (!row) throw notFound(`Messaging channel ${id} not found.`);
  return row;
}

export async function listMessagingChannelSettings(ctx: MemberCtx): Promise<z.infer<typeof MessagingChannelSettingsListSchema>> {
  const rows = await ctx.db.select().from(messagingChannels).where(eq(messagingChannels.tenantId, ctx.tenantId)).orderBy(asc(messagingChannels.createdAt));
  return { items: await Promise.all(rows.map((r) => present(ctx.db, r))) };
}

export async function getMessagingChannelSettings(ctx: MemberCtx, id: string): Promise<MessagingChannelSettings> {
  return present(ctx.db, await rowInTenant(ctx.db, ctx.tenantId, id));
}

export async function updateMessagingChannel(ctx: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<MessagingChannelSettings> {
  const data = UpdateMessagingChannelSchema.parse(body);
  if (Object.keys(data).length === 0) throw invalid("Send at least one field to change.");
  if (data.baseUrl !== undefined) await assertGatewayUrl(data.baseUrl);
  const existing = await rowInTenant(ctx.db, ctx.tenantId, id);
  const email = existing.provider === "smtp";
  const wrong = (email ? (["baseUrl", "apiKey", "sessionName"] as const) : (["address", "smtp"] as const)).find((k) => data[k] !== undefined);
  if (wrong) throw invalid(`body field \`${wrong}\`: not a setting of ${email ? "an e-mail" : "a gateway"} channel.`);
  const emailParts = email && (data.address !== undefined || data.smtp !== undefined) ? await updatedEmailCredentials(credentialsOf(existing), data) : null;
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const current = await rowInTenant(tx, ctx.tenantId, id);
    if (current.provider === WEB_CHAT_PROVIDER && (data.baseUrl !== undefined || data.apiKey !== undefined || data.sessionName !== undefined))
      throw invalid("A web-chat channel has no gateway: `baseUrl`, `apiKey` and `sessionName` do not apply.");
    if (data.ownerId) await assertMember(tx, ctx.tenantId, [data.ownerId], "ownerId");
    const set: Partial<MessagingChannelRow> = { updatedAt: new Date() };
    if (data.name !== undefined) set.name = data.name;
    if (data.baseUrl !== undefined) set.baseUrl = data.baseUrl.replace(/\/+$/, "");
    if (data.ownerId !== undefined) set.ownerId = data.ownerId;
    if (data.privacyMode !== undefined) set.privacyMode = data.privacyMode;
    if (data.mock !== undefined) set.mock = data.mock;
    if (emailParts) {
      set.baseUrl = emailParts.baseUrl;
      set.credentials = seal(JSON.stringify(emailParts.credentials));
    }
    if (data.apiKey !== undefined || data.sessionName !== undefined) {
      const creds = credentialsOf(current);
      set.credentials = seal(JSON.stringify({ apiKey: data.apiKey ?? creds.apiKey, sessionName: data.sessionName ?? creds.sessionName }));
    }
    const [row] = await tx
      .update(messagingChannels)
      .set(set)
      .where(and(eq(messagingChannels.id, id), eq(messagingChannels.tenantId, ctx.tenantId)))
      .returning();
    return present(tx, row);
  });
}

export async function deleteMessagingChannel(ctx: MemberCtx, id: string): Promise<void> {
  await inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const gone = await tx
      .delete(messagingChannels)
      .where(and(eq(messagingChannels.id, id), eq(messagingChannels.tenantId, ctx.tenantId)))
      .returning({ id: messagingChannels.id });
    if (!gone.length) throw notFound(`Messaging channel ${id} not found.`);
  });
}

export const GrantsSchema = z
  .strictObject({
    memberIds: z
      .array(z.uuid().transform((v) => v.toLowerCase()))
      .max(500)
      .refine((l) => new Set(l).size === l.length, "must not repeat a member"),
  })
  .meta({ id: "MessagingChannelGrants" });

/** `PUT .../{id}/grants`: replaces the members granted access (the owner always has it). */
export async function setChannelGrants(ctx: MemberCtx, { id, body }: { id: string; body: unknown }): Promise<MessagingChannelSettings> {
  const { memberIds } = GrantsSchema.parse(body);
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const row = await rowInTenant(tx, ctx.tenantId, id);
    await assertMember(tx, ctx.tenantId, memberIds, "memberIds");
    await tx.delete(messagingChannelGrants).where(and(eq(messagingChannelGrants.tenantId, ctx.tenantId), eq(messagingChannelGrants.channelId, id)));
    if (memberIds.length) await tx.insert(messagingChannelGrants).values(memberIds.map((memberId) => ({ tenantId: ctx.tenantId, channelId: id, memberId })));
    return present(tx, row);
  });
}

/** Host and port only: never the path, query or credentials of what was saved. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return "";
  }
}

async function present(db: DbOrTx, row: MessagingChannelRow): Promise<MessagingChannelSettings> {
  const grants = await db
    .select({ memberId: messagingChannelGrants.memberId })
    .from(messagingChannelGrants)
    .where(and(eq(messagingChannelGrants.tenantId, row.tenantId), eq(messagingChannelGrants.channelId, row.id)));
  return {
    id: row.id,
    name: row.name,
    transport: row.transport as MessagingChannelSettings["transport"],
    provider: row.provider as MessagingChannelSettings["provider"],
    gatewayHost: hostOf(row.baseUrl),
    ownerId: row.ownerId,
    privacyMode: row.privacyMode as "off" | "whitelist",
    mock: row.mock,
    connectionState: row.connectionState as MessagingChannelSettings["connectionState"],
    grants: grants.map((g) => g.memberId).sort(),
    ...(row.provider === "smtp" ? { email: presentEmailSettings(row, credentialsOf(row)) } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
