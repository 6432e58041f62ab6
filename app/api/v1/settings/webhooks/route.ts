import { getWebhookSettings, putWebhookSettings } from "@/lib/event-delivery/webhook-settings";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const GET = apiRoute(async ({ ctx }) => json(await getWebhookSettings(ctx)), { permission: "tenant.admin" });

export const PUT = apiRoute(async ({ req, ctx }) => json(await putWebhookSettings(ctx, await readJson(req))), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PATCH, DELETE } = otherMethods("GET", "PUT");
