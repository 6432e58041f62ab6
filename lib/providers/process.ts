import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { providerNotifications, providerSettings } from "../../db/schema";
import { inTenantTransaction } from "../../db/transaction";
import type { IntegrationActor } from "../context/actor";
import { logger } from "../log/logger";
import { applyEsignatureNotification } from "./esignature-notifications";
import { parseNotification } from "./payloads";
import { applyPaymentNotification } from "./payment-notifications";
import { errorText } from "../errors/error-text";
import { storableJson } from "../util/storable-text";

const STALE_CLAIM_SECONDS = 120;
/** A notification whose processing throws (a database hiccup, a bug) is tried again this many times in all. */
export const MAX_ATTEMPTS = 5;

export type Applied = { outcome: string; effects: Record<string, unknown> | null };

type Claimed = { id: string; tenant_id: string; provider_id: string; body: string; received_at: string | Date; seq: string | number; attempts: number };

/**
 * Claims up to `limit` stored notifications, oldest first, and applies each in its tenant's
 * transaction together with its outcome, so a notification's effects and its "processed" mark
 * commit together. The tenant row lock (taken first) serializes two workers on the same tenant.
 */
export async function processProviderNotifications(db: Db, limit: number): Promise<{ claimed: number; processed: number; failed: number }> {
  const claimed = rowsOf<Claimed>(
    await db.execute(sql`
      update provider_notifications set status = 'processing', claimed_at = now(), attempts = attempts + 1
      where id in (
        select id from provider_notifications
        where status = 'received' or (status = 'processing' and claimed_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
        order by seq
        limit ${limit}
        for update skip locked)
      returning id, tenant_id, provider_id, body, received_at, seq, attempts`),
  ).sort((a, b) => Number(a.seq) - Number(b.seq));
  let processed = 0;
  let failed = 0;
  for (const row of claimed) {
    try {
      await processOne(db, row);
      processed++;
    } catch (err) {
      failed++;
      const attempts = Number(row.attempts);
      logger().warn({ err, notificationId: row.id, attempts }, "provider notification processing failed");
      // Nothing of it was applied (its transaction rolled back): back in the queue until the last attempt.
      const final = attempts >= MAX_ATTEMPTS;
      await db
        .update(providerNotifications)
        .set({ status: final ? "failed" : "received", error: errorText(err), processedAt: final ? new Date() : null })
        .where(eq(providerNotifications.id, row.id));
    }
  }
  return { claimed: claimed.length, processed, failed };
}

async function processOne(db: Db, row: Claimed): Promise<void> {
  await inTenantTransaction(db, row.tenant_id, async (tx) => {
    const [provider] = await tx
      .select()
      .from(providerSettings)
      .where(and(eq(providerSettings.id, row.provider_id), eq(providerSettings.tenantId, row.tenant_id)))
      .limit(1);
    if (!provider) return; // deleted: its notifications went with it
    const actor: IntegrationActor = { kind: "integration", tenantId: row.tenant_id, integration: "provider", id: provider.id };
    const parsed = parseNotification(provider.kind, storableJson(JSON.parse(row.body)));
    const result: Applied =
      parsed.kind === "payment"
        ? await applyPaymentNotification(tx, actor, parsed.payment)
        : await applyEsignatureNotification(tx, actor, parsed.esign, new Date(row.received_at));
    await tx
      .update(providerNotifications)
      .set({ status: "processed", outcome: result.outcome, effects: result.effects, error: null, processedAt: new Date() })
      .where(eq(providerNotifications.id, row.id));
  });
}
