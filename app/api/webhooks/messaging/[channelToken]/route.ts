import { getMessagingWebhook, postMessagingWebhook } from "@/lib/inbound/messaging-webhook";
import { otherMethods } from "@/lib/http/method-not-allowed";

/** A provider gateway posts its events here: HMAC verified, stored before the 200, processed in the background. */
export const POST = postMessagingWebhook;

/** The WhatsApp Cloud API's subscription check (`hub.challenge` echoed as text). */
export const GET = getMessagingWebhook;

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
