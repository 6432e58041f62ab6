import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { eq } from "drizzle-orm";
import { aiSettings } from "../../db/schema";
import { config } from "../config";
import type { Ctx } from "../context/verb-context";
import { unseal } from "../messaging/secret-box";
import { modelFetch } from "./model-fetch";

export type TenantModel = { model: LanguageModel; modelId: string };

/**
 * The model a tenant's work calls: the tenant's own endpoint when its AI settings name one, else
 * the service-wide default (AI_BASE_URL, AI_API_KEY, AI_MODEL), else null (models are off for the
 * tenant: callers skip the work). `opts.model` picks another model at the same endpoint (an
 * agent's own choice). Every request goes through the outbound guard (`modelFetch`). The budget is
 * the caller's to check (`budgetState`) before calling and to record (`recordTokenUsage`) after.
 */
export async function tenantModel(ctx: Ctx, opts: { model?: string } = {}): Promise<TenantModel | null> {
  const [row] = await ctx.db.select().from(aiSettings).where(eq(aiSettings.tenantId, ctx.tenantId));
  const env = config();
  let baseURL: string;
  let apiKey: string | undefined;
  let modelId: string | undefined;
  if (row?.baseUrl) {
    baseURL = row.baseUrl;
    apiKey = row.apiKey ? unseal(row.apiKey) : undefined;
    modelId = opts.model ?? row.defaultModel ?? undefined;
  } else if (env.AI_BASE_URL) {
    baseURL = env.AI_BASE_URL;
    apiKey = env.AI_API_KEY;
    modelId = opts.model ?? row?.defaultModel ?? env.AI_MODEL;
  } else {
    return null;
  }
  if (!modelId) return null;
  const provider = createOpenAICompatible({ name: "tenant", baseURL, apiKey, fetch: modelFetch, includeUsage: true });
  return { model: provider.chatModel(modelId), modelId };
}
