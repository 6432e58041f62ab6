import { rotateWebhookSecret } from "@/lib/webhooks/webhook-settings";
import { apiRoute, json } from "@/lib/http/route";

export const POST = apiRoute(async ({ ctx }) => json(await rotateWebhookSecret(ctx)), { permission: "tenant.admin" });
