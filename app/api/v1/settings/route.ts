import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { updateSettings } from "@/lib/admin/update-settings";
import { getSettings } from "@/lib/tenants/settings";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const GET = apiRoute(async ({ ctx }) => json(await getSettings(ctx)), { permission: "tenant.admin" });

export const PATCH = apiRoute(async ({ req, ctx }) => json(await updateSettings(ctx, await readJson(req))), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, DELETE } = otherMethods("GET", "PATCH");
