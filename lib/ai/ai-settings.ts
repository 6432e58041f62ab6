import { eq } from "drizzle-orm";
import { z } from "zod";
import { aiSettings, type AiSettingsRow } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import { config } from "../config";
import type { Ctx, MemberCtx } from "../context/verb-context";
import { invalid } from "../errors/domain-errors";
import { seal } from "../messaging/secret-box";
import { assertPublicUrl } from "../outbound-fetch/assert-public-url";
import { aiBaseUrlProblem, baseUrlHost } from "./base-url";
import { tokensUsedThisMonth } from "./token-budget";

const BaseUrl = z
  .string()
  .trim()
  .max(2000)
  .superRefine((v, ctx) => {
    const problem = aiBaseUrlProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** Model names are the provider's own (`gpt-4o-mini`, `llama3.1:8b`, `org/model`): printable, one line. */
const ModelName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\s\p{Cc}]+$/u, "must be a model name without spaces or control characters, such as gpt-4o-mini");

export const PutAiSettingsSchema = z
  .strictObject({
    baseUrl: BaseUrl.nullable().meta({
      description:
        "OpenAI-compatible endpoint, up to before `/chat/completions` (`https://api.openai.com/v1`, `http://ollama:11434/v1`). `null`: the service-wide default, if the operator set one.",
    }),
    apiKey: z.string().trim().min(1).max(4096).nullable().optional().meta({
      description:
        "Bearer key of `baseUrl`; stored sealed, never returned. Omit it to keep the stored key (only while `baseUrl` keeps its origin); `null` erases it.",
    }),
    defaultModel: ModelName.nullable().meta({
      description: "Model used when a caller names none (required with `baseUrl`). With `baseUrl: null`, a model of the service default.",
    }),
    monthlyTokenBudget: z
      .int()
      .min(0)
      .max(2_000_000_000)
      .nullable()
      .meta({ description: "Input plus output tokens a calendar month (UTC) may use; at the limit no new model call starts. `null`: no limit." }),
  })
  .superRefine((v, ctx) => {
    if (v.baseUrl && !v.defaultModel) ctx.addIssue({ code: "custom", path: ["defaultModel"], message: "is required with `baseUrl` (the model to call there)" });
    if (!v.baseUrl && v.apiKey) ctx.addIssue({ code: "custom", path: ["apiKey"], message: "needs `baseUrl` (the service default uses the operator's key)" });
  })
  .meta({ id: "AiSettingsInput" });

export const AiSettingsSchema = z
  .object({
    baseUrlHost: z.string().nullable().meta({ description: "Host (and port) of the tenant's own endpoint; `null` when it uses the service default." }),
    defaultModel: z.string().nullable(),
    hasApiKey: z.boolean().meta({ description: "Whether a key is stored. The key itself is never returned." }),
    monthlyTokenBudget: z.int().nullable(),
    tokensUsedThisMonth: z.int().meta({ description: "Input plus output tokens of model calls this calendar month (UTC), every purpose together." }),
    provider: z
      .enum(["tenant", "service_default", "none"])
      .meta({ description: "Which endpoint model calls use now: the tenant's, the operator's default (AI_BASE_URL), or none (models off)." }),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: "AiSettings" });

export type AiSettings = z.infer<typeof AiSettingsSchema>;

async function present(ctx: Ctx, row: AiSettingsRow | undefined): Promise<AiSettings> {
  const own = Boolean(row?.baseUrl);
  return {
    baseUrlHost: baseUrlHost(row?.baseUrl),
    defaultModel: row?.defaultModel ?? null,
    hasApiKey: Boolean(row?.apiKey),
    monthlyTokenBudget: row?.monthlyTokenBudget ?? null,
    tokensUsedThisMonth: await tokensUsedThisMonth(ctx),
    provider: own ? "tenant" : config().AI_BASE_URL ? "service_default" : "none",
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export async function getAiSettings(ctx: MemberCtx): Promise<AiSettings> {
  const [row] = await ctx.db.select().from(aiSettings).where(eq(aiSettings.tenantId, ctx.tenantId));
  return present(ctx, row);
}

const originOf = (raw: string | null | undefined) => (raw ? new URL(raw).origin : null);

/**
 * Replaces the tenant's model provider settings. The base URL is checked like a webhook URL (its
 * host must not be, or resolve to, a non-public address where private targets are not allowed).
 * A stored key follows the settings only while the origin stays the same: moving `baseUrl` to
 * another origin without sending `apiKey` (a new key, or null) is a 400, so the key can never be
 * sent to a host it was not given for.
 */
export async function putAiSettings(ctx: MemberCtx, input: unknown): Promise<AiSettings> {
  const data = PutAiSettingsSchema.parse(input);
  // Where the URL points needs DNS, so it is checked here rather than in the schema (and before the transaction).
  if (data.baseUrl) await assertPublicUrl("baseUrl", data.baseUrl, "a model server on an internal network");
  return inTenantTransaction(ctx.db, ctx.tenantId, async (tx) => {
    const [current] = await tx.select().from(aiSettings).where(eq(aiSettings.tenantId, ctx.tenantId)).for("update");
    let apiKey: string | null;
    if (data.apiKey !== undefined) apiKey = data.apiKey === null ? null : seal(data.apiKey);
    else if (!current?.apiKey || !data.baseUrl) apiKey = null;
    else if (originOf(current.baseUrl) === originOf(data.baseUrl)) apiKey = current.apiKey;
    else throw invalid("body field `apiKey`: send the key again (or `null`) when `baseUrl` moves to another host; the stored key stays with its host.");
    const values = {
      baseUrl: data.baseUrl,
      apiKey,
      defaultModel: data.defaultModel,
      monthlyTokenBudget: data.monthlyTokenBudget,
      updatedAt: new Date(),
    };
    const [row] = await tx
      .insert(aiSettings)
      .values({ tenantId: ctx.tenantId, ...values })
      .onConflictDoUpdate({ target: aiSettings.tenantId, set: values })
      .returning();
    return present({ ...ctx, db: tx }, row);
  });
}
