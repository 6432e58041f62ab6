import { eq } from "drizzle-orm";
import { z } from "zod";
import { webhookSettings } from "../../db/schema";
import type { MemberCtx } from "../context/verb-context";
import { conflict } from "../errors/domain-errors";
import { claimHead } from "./claim";
import { attemptDelivery, resolveOptions } from "./deliver";
import { recordEvent } from "../outbox/record-event";
import { inTenantTransaction } from "../../db/transaction";

export const TestResultSchema = z
  .object({
    eventId: z.uuid(),
    delivered: z.boolean(),
    statusCode: z.number().nullable().meta({ description: "The receiver's HTTP status; null on a network error or timeout." }),
    error: z.string().nullable(),
    durationMs: z.number(),
    responseExcerpt: z.string().nullable(),
  })
  .meta({ id: "WebhookTestResult" });

/**
 * Queues `webhook.test` (always, whatever events are selected) and attempts it at once with the
 * enabled headers. A failed test stays queued and is retried like any event.
 */
export async function sendTestWebhook({ db, actor }: MemberCtx): Promise<z.infer<typeof TestResultSchema>> {
  const [settings] = await db.select().from(webhookSettings).where(eq(webhookSettings.tenantId, actor.tenantId));
  if (!settings?.url) throw conflict("No webhook URL is configured: set one with PUT /api/v1/settings/webhooks first.");
  const eventId = await inTenantTransaction(db, actor.tenantId, (tx) =>
    recordEvent(tx, {
      tenantId: actor.tenantId,
      eventName: "webhook.test",
      entityType: "webhook",
      entityId: actor.tenantId,
      userId: actor.userId,
      data: { message: "Test event: your endpoint is reachable.", url: settings.url },
    }),
  );
  const o = resolveOptions();
  const claimed = await claimHead(db, actor.tenantId, o.workerId, o.timeoutMs + 30_000, eventId);
  // A worker may have picked it up in between; the log shows that attempt.
  if (!claimed) return { eventId, delivered: false, statusCode: null, error: "already being delivered by a worker", durationMs: 0, responseExcerpt: null };
  const { outcome, result } = await attemptDelivery(db, claimed, o);
  return { eventId, delivered: outcome === "delivered", ...result };
}
