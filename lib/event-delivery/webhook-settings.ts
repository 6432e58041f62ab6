import { eq } from "drizzle-orm";
import { z } from "zod";
import { webhookSettings, type WebhookSettingsRow } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { conflict } from "../errors/domain-errors";
import { EVENT_NAMES } from "../outbox/event-names";
import { assertPublicUrl } from "../outbound-fetch/assert-public-url";
import { webhookUrlProblem } from "./webhook-url";
import { generateWebhookSecret } from "./webhook-secret";
import { inTenantTransaction } from "../../db/transaction";

const Url = z
  .string()
  .trim()
  .max(2000)
  .superRefine((v, ctx) => {
    const problem = webhookUrlProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const PutWebhookSchema = z
  .strictObject({
    url: Url.nullable().meta({ description: "Receiver URL (https). `null` turns delivery off." }),
    events: z
      .array(z.enum(EVENT_NAMES.filter((n) => n !== "webhook.test") as [string, ...string[]]))
      .max(EVENT_NAMES.length)
      .transform((l) => [...new Set(l)])
      .meta({ description: "Event names to deliver (spec 2 §6). Events not listed are not queued." }),
    hmac: z.boolean().meta({ description: "Sign each POST: x-webhook-timestamp and x-webhook-signature." }),
    bearer: z.boolean().meta({ description: "Send Authorization: Bearer <secret>." }),
  })
  .meta({ id: "WebhookSettingsInput" });

export const WebhookSettingsSchema = z
  .object({
    url: z.string().nullable(),
    events: z.array(z.string()),
    hmac: z.boolean(),
    bearer: z.boolean(),
    hasSecret: z.boolean(),
    secret: z.string().optional().meta({ description: "Only in the response that generated it (or a rotation). Store it now." }),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: "WebhookSettings" });

export type WebhookSettings = z.infer<typeof WebhookSettingsSchema>;

/** The answer of `rotateWebhookSecret`. */
export const WebhookSecretSchema = z
  .object({ secret: z.string().meta({ description: "The new shared secret (32 random bytes, base64url). Shown only here." }) })
  .meta({ id: "WebhookSecret" });

function present(row: WebhookSettingsRow | undefined, newSecret?: string): WebhookSettings {
  return {
    url: row?.url ?? null,
    events: row?.events ?? [],
    hmac: row?.hmac ?? false,
    bearer: row?.bearer ?? false,
    hasSecret: Boolean(row?.secret),
    ...(newSecret ? { secret: newSecret } : {}),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export async function getWebhookSettings({ db, actor }: MemberCtx): Promise<WebhookSettings> {
  const [row] = await db.select().from(webhookSettings).where(eq(webhookSettings.tenantId, actor.tenantId));
  return present(row);
}

/**
 * Replaces the settings. A URL whose host is or resolves to a non-public address is a 400 where
 * private targets are not allowed. Turning authentication on generates the shared secret (returned once);
 * turning both options off erases it; changing only the URL or events keeps it.
 */
export async function putWebhookSettings({ db, actor }: MemberCtx, input: unknown): Promise<WebhookSettings> {
  const data = PutWebhookSchema.parse(input);
  // Where the URL points needs DNS, so it is checked here rather than in the schema (and before the transaction).
  if (data.url) await assertPublicUrl("url", data.url, "an internal receiver");
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const [current] = await tx.select().from(webhookSettings).where(eq(webhookSettings.tenantId, actor.tenantId)).for("update");
    const wantsSecret = data.hmac || data.bearer;
    let secret = current?.secret ?? null;
    let fresh: string | undefined;
    if (!wantsSecret) secret = null;
    else if (!secret) secret = fresh = generateWebhookSecret();
    const values = { ...data, events: data.events, secret, updatedAt: new Date() };
    const [row] = await tx
      .insert(webhookSettings)
      .values({ tenantId: actor.tenantId, ...values })
      .onConflictDoUpdate({ target: webhookSettings.tenantId, set: values })
      .returning();
    return present(row, fresh);
  });
}

/** A new secret; the old one stops being used at once (each attempt reads the current one). */
export async function rotateWebhookSecret({ db, actor }: MemberCtx): Promise<z.infer<typeof WebhookSecretSchema>> {
  return inTenantTransaction(db, actor.tenantId, async (tx) => {
    const [row] = await tx.select().from(webhookSettings).where(eq(webhookSettings.tenantId, actor.tenantId)).for("update");
    if (!row || !(row.hmac || row.bearer)) {
      throw conflict("No authentication option is on: enable hmac or bearer first (that generates the secret).");
    }
    const secret = generateWebhookSecret();
    await tx.update(webhookSettings).set({ secret, updatedAt: new Date() }).where(eq(webhookSettings.tenantId, actor.tenantId));
    return { secret };
  });
}
