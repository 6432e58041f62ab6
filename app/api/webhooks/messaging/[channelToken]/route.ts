import { otherMethods } from "@/lib/http/method-not-allowed";
import { json, noStore, run, type Segment } from "@/lib/http/run";
import { receiveMessagingWebhook, verifyCloudSubscription } from "@/lib/messaging/inbound/receive-webhook";

/** A provider gateway posts its events here: HMAC verified, stored before the 200, processed in the background. */
export function POST(req: Request, segment: Segment<{ channelToken: string }>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) => json(await receiveMessagingWebhook(db, params.channelToken, req)));
}

/** The WhatsApp Cloud API's subscription check (`hub.challenge` echoed as text). */
export function GET(req: Request, segment: Segment<{ channelToken: string }>): Promise<Response> {
  return run(req, segment, noStore, async ({ db, params }) =>
    new Response(await verifyCloudSubscription(db, params.channelToken, new URL(req.url)), { headers: { "content-type": "text/plain" } }),
  );
}

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
