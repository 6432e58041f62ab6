import { otherMethods } from "@/lib/http/method-not-allowed";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { createProvider, listProviders } from "@/lib/providers/settings";

export const GET = apiRoute(async ({ req, ctx }) => json(await listProviders(ctx, new URL(req.url).origin)), { permission: "tenant.admin" });

/** The answer carries the receiver URL and its secret, this once. */
export const POST = apiRoute(async ({ req, ctx }) => json(await createProvider(ctx, { body: await readJson(req), origin: new URL(req.url).origin }), 201), {
  permission: "tenant.admin",
});

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
