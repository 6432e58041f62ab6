import { createHash } from "node:crypto";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { and, eq, sql } from "drizzle-orm";
import { preparedOn } from "../../db/prepared";
import { aiSettings, aiTokenUsage, type AiSettingsRow } from "../../db/schema";
import { config } from "../config";
import type { Ctx } from "../context/verb-context";
import { unseal } from "../messaging/secret-box";
import { processGlobal } from "../util/process-global";
import { modelFetch } from "./model-fetch";
import { budgetOf, tokensUsedThisMonth, usageMonth, type BudgetState } from "./token-budget";

export type TenantModel = { model: LanguageModel; modelId: string };

/**
 * The model a tenant's work calls: the tenant's own endpoint when its AI settings name one, else
 * the service-wide default (AI_BASE_URL, AI_API_KEY, AI_MODEL), else null (models are off for the
 * tenant: callers skip the work). `opts.model` picks another model at the same endpoint (an
 * agent's own choice). Every request goes through the outbound guard (`modelFetch`). The budget is
 * the caller's to check (`budgetState`, or `tenantModelAndBudget` for both in one read) before
 * calling and to record (`recordTokenUsage`) after.
 */
export async function tenantModel(ctx: Ctx, opts: { model?: string } = {}): Promise<TenantModel | null> {
  const [row] = await ctx.db.select().from(aiSettings).where(eq(aiSettings.tenantId, ctx.tenantId));
  return modelOf(row, opts);
}

/**
 * The tenant's model and its budget state from one read (the settings row with this month's
 * usage beside it): an agent execution asks for both before its first model call, and each read
 * is a round trip and CPU on a path measured per step (issue 34). The same answers as
 * `tenantModel` and `budgetState` read one after the other.
 */
export async function tenantModelAndBudget(ctx: Ctx, opts: { model?: string } = {}, at = new Date()): Promise<{ tm: TenantModel | null; budget: BudgetState }> {
  const [found] = await preparedOn(ctx.db, "ai-settings-and-usage", (db, name) =>
    db
      .select({
        settings: aiSettings,
        used: sql<string | number | null>`(select sum(${aiTokenUsage.inputTokens} + ${aiTokenUsage.outputTokens}) from ${aiTokenUsage} where ${and(
          eq(aiTokenUsage.tenantId, sql.placeholder("tenantId")),
          eq(aiTokenUsage.month, sql.placeholder("month")),
        )})`,
      })
      .from(aiSettings)
      .where(eq(aiSettings.tenantId, sql.placeholder("tenantId")))
      .prepare(name),
  ).execute({ tenantId: ctx.tenantId, month: usageMonth(at) });
  // No settings row (the service-wide default model): the usage is read on its own.
  const used = found ? Number(found.used ?? 0) : await tokensUsedThisMonth(ctx, at);
  return { tm: modelOf(found?.settings, opts), budget: budgetOf(found?.settings.monthlyTokenBudget ?? null, used) };
}

function modelOf(row: AiSettingsRow | undefined, opts: { model?: string }): TenantModel | null {
  const env = config();
  if (row?.baseUrl) {
    const modelId = opts.model ?? row.defaultModel ?? undefined;
    if (!modelId) return null;
    return cachedModel(row.baseUrl, row.apiKey ?? "", modelId, () => (row.apiKey ? unseal(row.apiKey) : undefined));
  }
  if (env.AI_BASE_URL) {
    const modelId = opts.model ?? row?.defaultModel ?? env.AI_MODEL;
    if (!modelId) return null;
    // The service's key enters the cache's key only as its hash.
    const keyId = `env:${createHash("sha256")
      .update(env.AI_API_KEY ?? "")
      .digest("base64url")}`;
    return cachedModel(env.AI_BASE_URL, keyId, modelId, () => env.AI_API_KEY);
  }
  return null;
}

/** Models kept per process; past this many the oldest go (a model object is small, and rebuilt on demand). */
const MAX_MODELS = 500;
/**
 * How long a model object (and the unsealed key inside it) is kept: a key rotated or deleted in
 * the tenant's settings leaves no copy in memory for longer than this.
 */
const MODEL_TTL_MS = 10 * 60_000;

/**
 * The provider's model object for an endpoint, key and model id, built once per process: building
 * it (the provider, its answer schemas) and unsealing the key cost about a millisecond of CPU, at
 * every execution before. The object holds no state between calls. Keyed by the sealed key as
 * stored, so a changed key (or endpoint, or model) is a new entry and an old one is never used
 * for it.
 */
function cachedModel(baseURL: string, keyId: string, modelId: string, apiKey: () => string | undefined): TenantModel {
  const cache = processGlobal("ai-tenant-models", () => new Map<string, { tm: TenantModel; at: number }>());
  const key = `${baseURL}\n${keyId}\n${modelId}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < MODEL_TTL_MS) return hit.tm;
  cache.delete(key);
  const provider = createOpenAICompatible({ name: "tenant", baseURL, apiKey: apiKey(), fetch: modelFetch, includeUsage: true });
  const tm = { model: provider.chatModel(modelId), modelId };
  if (cache.size >= MAX_MODELS) cache.delete(cache.keys().next().value as string);
  cache.set(key, { tm, at: now });
  return tm;
}
