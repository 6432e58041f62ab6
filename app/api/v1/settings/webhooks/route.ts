import { getWebhookSettings, putWebhookSettings } from "@/lib/events/webhook-settings";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";

export const GET = apiRoute(async ({ db, actor }) => json(await getWebhookSettings(db, actor)));

export const PUT = apiRoute(async ({ req, db, actor }) => json(await putWebhookSettings(db, actor, await readJson(req))));
