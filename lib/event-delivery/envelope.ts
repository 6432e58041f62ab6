import type { EventRow } from "../../db/schema";
import { config } from "../config";
import { signPayload } from "./sign";

/** The outbound envelope of spec 2 §2.10; `timestamp` is the time of this attempt. */
export function buildEnvelope(e: EventRow, attemptAt: Date) {
  return {
    eventId: e.id,
    eventName: e.eventName,
    occurredAt: e.occurredAt.toISOString(),
    timestamp: attemptAt.toISOString(),
    tenantId: e.tenantId,
    data: { entityType: e.entityType, entityId: e.entityId, userId: e.userId, data: e.data, old: e.old ?? null, changes: null },
  };
}

export type AuthOptions = { hmac: boolean; bearer: boolean; secret: string | null };

/** Headers of spec 2 §6 plus the enabled authentication; the signature covers the exact body. */
export function buildHeaders(e: EventRow, body: string, auth: AuthOptions, attemptAt: Date): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": `${config().SERVICE_NAME}-Webhook/1.0`,
    "x-tenant-id": e.tenantId,
    "x-event-id": e.id,
    "x-event-name": e.eventName,
  };
  if (auth.secret && auth.hmac) {
    const ts = String(Math.floor(attemptAt.getTime() / 1000));
    headers["x-webhook-timestamp"] = ts;
    headers["x-webhook-signature"] = signPayload(auth.secret, ts, body);
  }
  if (auth.secret && auth.bearer) headers.authorization = `Bearer ${auth.secret}`;
  return headers;
}
