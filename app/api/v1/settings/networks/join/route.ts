import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { joinNetwork } from "@/lib/networks/networks";

export const POST = apiRoute(async ({ req, ctx }) => json(await joinNetwork(ctx, await readJson(req))), { permission: "tenant.admin" });
