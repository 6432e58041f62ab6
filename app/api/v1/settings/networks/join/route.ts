import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { joinNetwork } from "@/lib/networks/networks";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const POST = apiRoute(async ({ req, ctx }) => json(await joinNetwork(ctx, await readJson(req))), { permission: "tenant.admin" });

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods("POST");
