import { config } from "../config";
import type { ClaimedEvent } from "./claim";
import { signPayload } from "./sign";

const str = JSON.stringify;

/**
 * The body of one attempt: the outbound envelope of spec 2 §2.10, `timestamp` being the time of
 * this attempt. Written as text around the event's stored JSON (`data`, `old` as the database
 * prints them), which is put in as it is: no parse and serialise again per attempt, and numbers
 * keep every digit they were stored with. Same fields, same order as before.
 */
export function envelopeBody(e: ClaimedEvent, attemptAt: Date): string {
  return (
    `{"eventId":${str(e.id)},"eventName":${str(e.eventName)},"occurredAt":"${e.occurredAt.toISOString()}",` +
    `"timestamp":"${attemptAt.toISOString()}","tenantId":${str(e.tenantId)},"data":{"entityType":${str(e.entityType)},` +
    `"entityId":${str(e.entityId)},"userId":${str(e.userId)},"data":${e.dataJson},"old":${e.oldJson ?? "null"},"changes":null}}`
  );
}

export type AuthOptions = { hmac: boolean; bearer: boolean; secret: string | null };

/** Headers of spec 2 §6 plus the enabled authentication; the signature covers the exact body. */
export function buildHeaders(e: ClaimedEvent, body: string, auth: AuthOptions, attemptAt: Date): Record<string, string> {
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
