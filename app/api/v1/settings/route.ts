import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { getSettings, updateSettings } from "@/lib/tenants/settings";

export const GET = apiRoute(async ({ ctx }) => json(await getSettings(ctx)), { permission: "tenant.admin" });

export const PATCH = apiRoute(async ({ req, ctx }) => json(await updateSettings(ctx, await readJson(req))), { permission: "tenant.admin" });
