import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { listings, listingTranslationQueue } from "../../db/schema";
import { budgetState } from "../ai/token-budget";
import { tenantModel } from "../ai/tenant-model";
import { systemActor } from "../context/actor";
import type { Ctx } from "../context/verb-context";
import { errorText } from "../errors/error-text";
import type { QueueRound } from "../jobs/drain";
import { applyAiTranslations, type MachineTranslation } from "../listings/ai-translations";
import { translationTargets } from "../listings/translation-queue";
import { logger } from "../log/logger";
import { loadTenant } from "../tenants/load-tenant";
import { translateListingText } from "./translate-text";

/** A claim older than this belongs to a run that died (model calls take up to AI_TIMEOUT_MS per language). */
const STALE_CLAIM_SECONDS = 600;
/** A listing whose translation fails (model down, garbage) is tried this many times, then dropped until its text changes again. */
export const MAX_ATTEMPTS = 5;
/** Listings translated at once in one round: model calls wait on the network, not on our cores. */
const PARALLEL = 4;

type Claimed = { listing_id: string; tenant_id: string; requested_at: string | Date; attempts: number };

export type TranslationOutcome = "translated" | "unchanged" | "stale" | "gone" | "not_needed" | "no_model" | "budget_exhausted";

/** Retry waits: 30 s, 1, 2, 4 minutes. */
const backoffSeconds = (attempts: number) => 30 * 2 ** Math.max(0, attempts - 1);

/** The first moment of the next calendar month (UTC), when a monthly budget starts again. */
function nextMonth(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * One round of the translation queue: claims up to `limit` due listings and translates each. A
 * failure (the model times out, errs or answers garbage) puts the listing back with a growing
 * wait, up to MAX_ATTEMPTS; the listing write that queued it committed long before, so nothing a
 * model does can break it. An exhausted budget makes no call and waits (attempts not counted).
 */
export async function processListingTranslations(db: Db, limit: number): Promise<QueueRound & { outcomes: TranslationOutcome[] }> {
  const claimed = rowsOf<Claimed>(
    await db.execute(sql`
      update listing_translation_queue set claimed_at = now(), attempts = attempts + 1
      where listing_id in (
        select listing_id from listing_translation_queue
        where next_attempt_at <= now()
          and (claimed_at is null or claimed_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
        order by next_attempt_at
        limit ${limit}
        for update skip locked)
      returning listing_id, tenant_id, requested_at, attempts`),
  );
  let processed = 0;
  let failed = 0;
  const outcomes: TranslationOutcome[] = [];
  const work = [...claimed];
  const lane = async () => {
    for (let row = work.shift(); row; row = work.shift()) {
      try {
        outcomes.push(await processOne(db, row));
        processed++;
      } catch (err) {
        failed++;
        await reschedule(db, row, err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, claimed.length) }, lane));
  return { claimed: claimed.length, processed, failed, outcomes };
}

/** This claim's queue row, unless a newer change re-queued the listing meanwhile (then that one stays). */
const sameRequest = (row: Claimed) =>
  and(eq(listingTranslationQueue.listingId, row.listing_id), eq(listingTranslationQueue.requestedAt, new Date(row.requested_at)));

async function done(db: Db, row: Claimed): Promise<void> {
  await db.delete(listingTranslationQueue).where(sameRequest(row));
}

async function reschedule(db: Db, row: Claimed, err: unknown): Promise<void> {
  const attempts = Number(row.attempts);
  const log = logger().child({ listingId: row.listing_id, tenantId: row.tenant_id, attempts });
  if (attempts >= MAX_ATTEMPTS) {
    log.warn({ err }, "listing translation failed for the last time; it is dropped until the Portuguese text changes again");
    await done(db, row);
    return;
  }
  log.warn({ err }, "listing translation failed; it will be tried again");
  await db
    .update(listingTranslationQueue)
    .set({ claimedAt: null, lastError: errorText(err), nextAttemptAt: new Date(Date.now() + backoffSeconds(attempts) * 1000) })
    .where(sameRequest(row));
}

async function processOne(db: Db, row: Claimed): Promise<TranslationOutcome> {
  const tenantId = row.tenant_id;
  const ctx: Ctx = { db, tenantId, actor: systemActor(tenantId, "listing-translation") };
  const log = logger().child({ listingId: row.listing_id, tenantId });
  const tenant = await loadTenant(db, tenantId);
  const targets = translationTargets(tenant.settings);
  const [listing] = await db
    .select({ title: listings.title, description: listings.description, translations: listings.translations })
    .from(listings)
    .where(and(eq(listings.id, row.listing_id), eq(listings.tenantId, tenantId)));
  if (!listing) {
    await done(db, row);
    return "gone";
  }
  // A manual translation is the tenant's own text: never replaced.
  const langs = targets.filter((l) => listing.translations[l]?.source !== "manual");
  if (langs.length === 0) {
    await done(db, row);
    return "not_needed";
  }
  const budget = await budgetState(ctx);
  if (budget.exhausted) {
    log.info({ budget: budget.budget, used: budget.used }, "listing translation waits: the tenant's monthly token budget is used up");
    const wait = new Date(Math.min(Date.now() + 3600_000, nextMonth().getTime()));
    await db
      .update(listingTranslationQueue)
      .set({ claimedAt: null, attempts: sql`${listingTranslationQueue.attempts} - 1`, nextAttemptAt: wait, lastError: "budget_exhausted" })
      .where(sameRequest(row));
    return "budget_exhausted";
  }
  const model = await tenantModel(ctx);
  if (!model) {
    log.info("listing translation skipped: no model provider (tenant AI settings or AI_BASE_URL)");
    await done(db, row);
    return "no_model";
  }
  const source = { title: listing.title, description: listing.description };
  const results: Partial<Record<"en" | "es", MachineTranslation>> = {};
  for (const lang of langs) results[lang] = await translateListingText(ctx, model, source, lang);
  const applied = await applyAiTranslations(db, tenantId, row.listing_id, source, results);
  await done(db, row);
  return applied === "applied" ? "translated" : applied;
}
