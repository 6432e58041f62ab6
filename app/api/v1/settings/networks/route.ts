import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { createNetwork, listNetworks } from "@/lib/networks/networks";

export const GET = apiRoute(async ({ ctx }) => json(await listNetworks(ctx)), { permission: "tenant.admin" });

export const POST = apiRoute(async ({ req, ctx }) => json(await createNetwork(ctx, await readJson(req)), 201), { permission: "tenant.admin" });
