import { eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { providerNotifications, providerSettings } from "../../db/schema";
import { DomainError, invalid, notFound, unauthorized } from "../errors/domain-errors";
import { readCappedBody } from "../http/read-json";
import { sendJobEvent } from "../jobs/dispatch";
import { unseal } from "../messaging/secret-box";
import { providerNotificationReceived } from "./job";
import { describeIssues, parseNotification } from "./payloads";
import { PROVIDER_TOKEN_PATTERN } from "./settings";
import { verifyProviderRequest } from "./verify";
import { storableJson } from "../util/storable-text";

export const MAX_NOTIFICATION_BYTES = 256 * 1024;

/**
 * `POST /api/webhooks/providers/{pathToken}`. In this order: the token (404), the signature over
 * the exact raw bytes before any parsing (401; nothing stored), the payload's shape (400, stored as
 * `malformed` for inspection), then the notification is stored and only then answered 200. The
 * `process-provider-notifications` job applies it; nothing here changes a transaction or contract.
 */
export async function receiveProviderNotification(db: DbOrTx, pathToken: string, req: Request): Promise<{ ok: true; id: string }> {
  const unknown = () => notFound("Unknown provider receiver.");
  if (!PROVIDER_TOKEN_PATTERN.test(pathToken)) throw unknown();
  const [provider] = await db.select().from(providerSettings).where(eq(providerSettings.pathToken, pathToken)).limit(1);
  if (!provider) throw unknown();
  const raw = await readCappedBody(
    req,
    MAX_NOTIFICATION_BYTES,
    () => new DomainError("too_large", "payload_too_large", `The notification is larger than ${MAX_NOTIFICATION_BYTES / 1024} KB.`),
  );
  if (!verifyProviderRequest(unseal(provider.secret), provider.signatureHeader, req.headers, raw)) {
    throw unauthorized(
      `Invalid or missing signature: send the hex HMAC-SHA256 of the raw body with the receiver's secret in ${provider.signatureHeader} (optional sha256= prefix), or Authorization: Bearer <secret>.`,
    );
  }
  const text = raw.toString("utf8");
  const base = { tenantId: provider.tenantId, providerId: provider.id, body: text };
  let parsed;
  try {
    parsed = parseNotification(provider.kind, storableJson(JSON.parse(text)));
  } catch (err) {
    const why = err instanceof z.ZodError ? describeIssues(err) : "the body is not valid JSON";
    const message = `Malformed ${provider.kind === "payment" ? "payment" : "e-signature"} notification: ${why}.`;
    await db.insert(providerNotifications).values({ ...base, status: "malformed", error: message.slice(0, 1000) });
    throw invalid(message, "malformed_notification");
  }
  const [row] = await db
    .insert(providerNotifications)
    .values({ ...base, event: parsed.event, subjectKey: parsed.subjectKey.slice(0, 500) })
    .returning({ id: providerNotifications.id });
  sendJobEvent(providerNotificationReceived, {});
  return { ok: true, id: row.id };
}
