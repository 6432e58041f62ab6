import { z } from "zod";
import { providerNotifications } from "../../db/schema";
import { invalid } from "../errors/domain-errors";
import { sendJobEvent } from "../jobs/dispatch";
import { storableJson } from "../util/storable-text";
import { providerNotificationReceived } from "./job";
import { describeIssues, parseNotification } from "./payloads";
import type { ProviderCtx } from "./provider-caller";

export const MAX_NOTIFICATION_BYTES = 256 * 1024;

/** The receiver's 200: the stored notification's id. */
export const NotificationStoredSchema = z.object({ ok: z.literal(true), id: z.uuid() });

/**
 * A provider's notification, already authenticated (its signature over the exact bytes): the
 * payload's shape is checked (400, stored as `malformed` for inspection), then the notification is
 * stored, and only then answered. The `process-provider-notifications` job applies it; nothing here
 * changes a transaction or contract.
 */
export async function receiveProviderNotification(ctx: ProviderCtx, raw: Buffer): Promise<z.infer<typeof NotificationStoredSchema>> {
  const { provider } = ctx.actor;
  const text = raw.toString("utf8");
  const base = { tenantId: ctx.tenantId, providerId: provider.id, body: text };
  let parsed: ReturnType<typeof parseNotification>;
  try {
    parsed = parseNotification(provider.kind, storableJson(JSON.parse(text)));
  } catch (err) {
    const why = err instanceof z.ZodError ? describeIssues(err) : "the body is not valid JSON";
    const message = `Malformed ${provider.kind === "payment" ? "payment" : "e-signature"} notification: ${why}.`;
    await ctx.db.insert(providerNotifications).values({ ...base, status: "malformed", error: message.slice(0, 1000) });
    throw invalid(message, "malformed_notification");
  }
  const [row] = await ctx.db
    .insert(providerNotifications)
    .values({ ...base, event: parsed.event, subjectKey: parsed.subjectKey.slice(0, 500) })
    .returning({ id: providerNotifications.id });
  sendJobEvent(providerNotificationReceived, {});
  return { ok: true, id: row.id };
}
