import { type SQL, and, eq, sql } from "drizzle-orm";
import { aiSettings, aiTokenUsage } from "../../db/schema";
import type { Ctx } from "../context/verb-context";

/** What the tokens were spent on: the settings page and the logs tell them apart. */
export type TokenPurpose = "agent" | "translation" | "first_contact" | (string & {});

/** The calendar month (UTC) a moment counts in, as stored: `2026-11`. */
export const usageMonth = (at = new Date()) => at.toISOString().slice(0, 7);

/** Input plus output tokens the tenant used in the current UTC month, all purposes together. */
export async function tokensUsedThisMonth({ db, tenantId }: Ctx, at = new Date()): Promise<number> {
  const [row] = await db
    .select({ used: sql<string | number | null>`sum(${aiTokenUsage.inputTokens} + ${aiTokenUsage.outputTokens})` })
    .from(aiTokenUsage)
    .where(and(eq(aiTokenUsage.tenantId, tenantId), eq(aiTokenUsage.month, usageMonth(at))));
  return Number(row?.used ?? 0);
}

export type BudgetState = { budget: number | null; used: number; exhausted: boolean };

/**
 * The tenant's monthly budget (null: no limit), what it used this UTC month, and whether a new
 * model call must not start (`used >= budget`). A call already running may end past the budget:
 * the check is before a call, the accounting after it, as a provider bills.
 */
export async function budgetState(ctx: Ctx, at = new Date()): Promise<BudgetState> {
  const [settings] = await ctx.db.select({ budget: aiSettings.monthlyTokenBudget }).from(aiSettings).where(eq(aiSettings.tenantId, ctx.tenantId));
  return budgetOf(settings?.budget ?? null, await tokensUsedThisMonth(ctx, at));
}

/** The state for a budget (null: no limit) and what was used: a new call must not start once `used >= budget`. */
export const budgetOf = (budget: number | null, used: number): BudgetState => ({ budget, used, exhausted: budget !== null && used >= budget });

const count = (n: number | undefined | null) => (Number.isFinite(n) && (n as number) > 0 ? Math.floor(n as number) : 0);

/**
 * Adds one model call's tokens to the tenant's month (UTC) under `purpose`, in one atomic upsert
 * (concurrent calls add up, none is lost). Missing counts (a provider that reports no usage) count 0.
 */
export async function recordTokenUsage(
  { db, tenantId }: Ctx,
  usage: { inputTokens?: number | null; outputTokens?: number | null; purpose: TokenPurpose },
  at = new Date(),
): Promise<void> {
  await db.execute(tokenUsageUpsert(tenantId, usage, sql`true`, at));
}

/**
 * `recordTokenUsage`'s upsert as one statement to send, or to run inside another (an agent
 * execution's end records its tokens in the statement that records the end: `changeWithEvents`'s
 * `also`, whose `locked` goes in `where`).
 */
export function tokenUsageUpsert(
  tenantId: string,
  usage: { inputTokens?: number | null; outputTokens?: number | null; purpose: TokenPurpose },
  where: SQL,
  at = new Date(),
): SQL {
  const input = count(usage.inputTokens);
  const output = count(usage.outputTokens);
  const u = aiTokenUsage;
  return sql`
    insert into ${u} (tenant_id, month, purpose, input_tokens, output_tokens, calls)
    select ${tenantId}::uuid, ${usageMonth(at)}, ${usage.purpose}, ${input}, ${output}, 1
    where ${where}
    on conflict (tenant_id, month, purpose) do update set
      input_tokens = ${u.inputTokens} + ${input},
      output_tokens = ${u.outputTokens} + ${output},
      calls = ${u.calls} + 1,
      updated_at = ${new Date().toISOString()}::timestamptz`;
}
