import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { getSettings, updateSettings } from "@/lib/tenants/settings";

export const GET = apiRoute(async ({ db, actor }) => json(await getSettings(db, actor)));

export const PATCH = apiRoute(async ({ req, db, actor }) => json(await updateSettings(db, actor, await readJson(req))));
