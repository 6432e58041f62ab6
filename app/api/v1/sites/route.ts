import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { createSite, listSites } from "@/lib/sites/sites";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const GET = apiRoute(async ({ ctx }) => json(await listSites(ctx)), { permission: "tenant.admin" });

export const POST = apiRoute(async ({ req, ctx }) => json(await createSite(ctx, await readJson(req)), 201), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
