import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";

export const GET = apiRoute(async ({ db, actor }) => json(await listApiKeys(db, actor)));

export const POST = apiRoute(async ({ req, db, actor }) => json(await createApiKey(db, actor, await readJson(req)), 201));
