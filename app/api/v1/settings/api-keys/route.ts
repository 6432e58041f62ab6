import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const GET = apiRoute(async ({ ctx }) => json(await listApiKeys(ctx)), { permission: "tenant.admin" });

export const POST = apiRoute(async ({ req, ctx }) => json(await createApiKey(ctx, await readJson(req)), 201), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
