import { getAiSettings, putAiSettings } from "@/lib/ai/ai-settings";
import { readJson } from "@/lib/http/read-json";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { apiRoute, json } from "@/lib/http/route";

export const GET = apiRoute(async ({ ctx }) => json(await getAiSettings(ctx)), { permission: "tenant.admin" });

export const PUT = apiRoute(async ({ req, ctx }) => json(await putAiSettings(ctx, await readJson(req))), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PATCH, DELETE } = otherMethods("GET", "PUT");
