import { DomainError, unauthorized } from "../errors/domain-errors";
import { readCappedBody } from "../http/read-json";
import { json, noStore, run, type Segment } from "../http/run";
import { receiveEmail, verifyEmailSecret } from "../messaging/email/receive-email";
import { gatewayCaller } from "../messaging/inbound/gateway-caller";
import { cloudSubscriptionChallenge, MAX_WEBHOOK_BYTES, storeGatewayEvent } from "../messaging/inbound/store-gateway-event";
import { verifyWahaSignature } from "../messaging/providers/waha";
import { verifyCloudSignature } from "../messaging/providers/whatsapp-cloud";

type P = { channelToken: string };

/**
 * `POST /api/webhooks/messaging/{channelToken}`: the gateway's HMAC over the exact bytes is
 * verified first (WAHA `X-Webhook-Hmac`, Cloud `X-Hub-Signature-256`), the event is stored, and
 * only then do we answer 200. E-mail channels post the message itself (raw MIME or an
 * inbound-parse service's JSON) with the channel's secret: see lib/messaging/email/receive-email.ts.
 */
export function postMessagingWebhook(req: Request, segment: Segment<P>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => {
    const ctx = await gatewayCaller(db, params.channelToken);
    if (ctx.actor.channel.provider === "smtp") {
      if (!verifyEmailSecret(ctx.actor.secret, req.headers)) {
        throw unauthorized("Invalid or missing webhook secret: send the channel's secret as X-Webhook-Secret, a Bearer token or the Basic auth password.");
      }
      return json(await receiveEmail(ctx, req));
    }
    const raw = await readCappedBody(
      req,
      MAX_WEBHOOK_BYTES,
      () => new DomainError("too_large", "payload_too_large", `The webhook is larger than ${MAX_WEBHOOK_BYTES} bytes.`),
    );
    // Meta's Graph signs the same way for WhatsApp Cloud, Instagram and Messenger.
    const cloud = ctx.actor.channel.provider === "whatsapp_cloud" || ctx.actor.channel.provider === "meta";
    if (!(cloud ? verifyCloudSignature(ctx.actor.secret, req.headers, raw) : verifyWahaSignature(ctx.actor.secret, req.headers, raw))) {
      throw unauthorized(
        cloud
          ? "Invalid or missing X-Hub-Signature-256 (sha256=<hex HMAC-SHA256 of the body with the channel's HMAC secret>)."
          : "Invalid or missing X-Webhook-Hmac (hex HMAC-SHA512 of the body with the channel's HMAC secret, X-Webhook-Hmac-Algorithm: sha512).",
      );
    }
    return json(await storeGatewayEvent(ctx, raw));
  });
}

/** The WhatsApp Cloud API's subscription check: `hub.challenge` echoed as text. */
export function getMessagingWebhook(req: Request, segment: Segment<P>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => {
    const q = new URL(req.url).searchParams;
    const challenge = cloudSubscriptionChallenge(await gatewayCaller(db, params.channelToken), {
      mode: q.get("hub.mode"),
      verifyToken: q.get("hub.verify_token"),
      challenge: q.get("hub.challenge"),
    });
    return new Response(challenge, { headers: { "content-type": "text/plain" } });
  });
}
