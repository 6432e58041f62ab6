import { postProviderNotification } from "@/lib/inbound/provider-webhook";
import { otherMethods } from "@/lib/http/method-not-allowed";

/** A payment or e-signature provider posts here: signature verified on the raw body, stored before the 200, applied in the background. */
export const POST = postProviderNotification;

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
