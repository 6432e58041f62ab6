import { sendTestWebhook } from "@/lib/events/test-webhook";
import { apiRoute, json } from "@/lib/http/route";

export const POST = apiRoute(async ({ db, actor }) => json(await sendTestWebhook(db, actor)));
