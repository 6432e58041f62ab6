import { otherMethods } from "@/lib/http/method-not-allowed";
import { messagingRoute } from "@/lib/http/messaging-route";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/run";
import { sendProactive } from "@/lib/messaging/send/send-message";

/** A proactive send of free text or an approved template, always with an idempotency key. */
export const POST = messagingRoute(async ({ req, ctx }) => json(await sendProactive(ctx, await readJson(req))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
