import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { createSite, listSites } from "@/lib/sites/sites";

export const GET = apiRoute(async ({ ctx }) => json(await listSites(ctx)), { permission: "tenant.admin" });

export const POST = apiRoute(async ({ req, ctx }) => json(await createSite(ctx, await readJson(req)), 201), { permission: "tenant.admin" });
