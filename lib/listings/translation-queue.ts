import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../db/client";
import { listingTranslationQueue, type ListingRow } from "../../db/schema";
import { afterCommit } from "../../db/transaction";
import { jobEvent } from "../jobs/define-job";
import { sendJobEvent } from "../jobs/dispatch";
import type { TenantSettings } from "../tenants/settings-schema";

/** Sent after a commit that queued listings for translation: wakes the translation job at once. */
export const listingTextChanged = jobEvent("crm/listings.text-changed", z.object({}));

/** The languages automatic translation writes for this tenant now: its targets that are also enabled. */
export function translationTargets(s: TenantSettings): ("en" | "es")[] {
  if (!s.listingTranslation.enabled) return [];
  return s.listingTranslation.targets.filter((l) => s.listingLanguages.includes(l));
}

/**
 * Queues a listing for automatic translation when its Portuguese text is new or changed and the
 * tenant translates automatically. Written in the listing's transaction (a rollback queues
 * nothing); the job is woken after the commit. A listing already queued moves to the back with
 * its attempts reset, so the run translating its older text knows it is stale.
 */
export async function queueTranslation(tx: Tx, s: TenantSettings, row: ListingRow, before: { title: string; description: string | null } | null) {
  if (translationTargets(s).length === 0) return;
  if (before && before.title === row.title && before.description === row.description) return;
  const now = new Date();
  const values = { requestedAt: now, nextAttemptAt: now, claimedAt: null, attempts: 0, lastError: null };
  await tx
    .insert(listingTranslationQueue)
    .values({ listingId: row.id, tenantId: row.tenantId, ...values })
    .onConflictDoUpdate({ target: listingTranslationQueue.listingId, set: values });
  afterCommit(
    tx,
    "listings:translation-queued",
    () => null,
    () => sendJobEvent(listingTextChanged, {}),
  );
}

/**
 * When automatic translation starts for a language (turned on, or a target added), the listings
 * already in the catalogue are queued too, except those with a manual translation in every new
 * language: the job then translates them in the background, as it does a changed listing.
 */
export async function queueCatalogueForNewTargets(tx: Tx, tenantId: string, before: TenantSettings, after: TenantSettings): Promise<void> {
  const was = new Set(translationTargets(before));
  const added = translationTargets(after).filter((l) => !was.has(l));
  if (added.length === 0) return;
  const needs = sql.join(
    added.map((l) => sql`coalesce(translations -> ${l} ->> 'source', '') <> 'manual'`),
    sql` or `,
  );
  // requested_at from JavaScript (millisecond precision), as every queue write: the job finds its
  // row again by equality with the value it read, which PostgreSQL's microsecond now() would break.
  const now = new Date();
  await tx.execute(sql`
    insert into listing_translation_queue (listing_id, tenant_id, requested_at, next_attempt_at)
    select id, tenant_id, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz from listings where tenant_id = ${tenantId} and (${needs})
    on conflict (listing_id) do nothing`);
  afterCommit(
    tx,
    "listings:translation-queued",
    () => null,
    () => sendJobEvent(listingTextChanged, {}),
  );
}
