import { rotateWebhookSecret } from "@/lib/event-delivery/webhook-settings";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const POST = apiRoute(async ({ ctx }) => json(await rotateWebhookSecret(ctx)), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods("POST");
