import { DomainError, unauthorized } from "../errors/domain-errors";
import { readCappedBody } from "../http/read-json";
import { json, noStore, run, type Segment } from "../http/run";
import { unseal } from "../messaging/secret-box";
import { providerCaller } from "../providers/provider-caller";
import { MAX_NOTIFICATION_BYTES, receiveProviderNotification } from "../providers/receive";
import { verifyProviderRequest } from "../providers/verify";

/**
 * `POST /api/webhooks/providers/{pathToken}`. In this order: the token (404), the signature over
 * the exact raw bytes before any parsing (401; nothing stored), then the verb: the payload's shape
 * (400) and the stored notification, answered 200.
 */
export function postProviderNotification(req: Request, segment: Segment<{ pathToken: string }>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => {
    const ctx = await providerCaller(db, params.pathToken);
    const { provider } = ctx.actor;
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
    return json(await receiveProviderNotification(ctx, raw));
  });
}
