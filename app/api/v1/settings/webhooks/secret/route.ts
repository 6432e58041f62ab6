import { rotateWebhookSecret } from "@/lib/events/webhook-settings";
import { apiRoute, json } from "@/lib/http/route";

export const POST = apiRoute(async ({ db, actor }) => json(await rotateWebhookSecret(db, actor)));
