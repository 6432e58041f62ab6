import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";

export const GET = apiRoute(async ({ ctx }) => json(await listApiKeys(ctx)), { permission: "tenant.admin" });

export const POST = apiRoute(async ({ req, ctx }) => json(await createApiKey(ctx, await readJson(req)), 201), { permission: "tenant.admin" });
