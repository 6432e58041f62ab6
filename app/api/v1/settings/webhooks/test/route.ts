import { sendTestWebhook } from "@/lib/webhooks/test-webhook";
import { apiRoute, json } from "@/lib/http/route";

export const POST = apiRoute(async ({ ctx }) => json(await sendTestWebhook(ctx)), { permission: "tenant.admin" });
