import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { createProperty } from "@/lib/listings/properties";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const POST = apiRoute(async ({ req, ctx }) => json(await createProperty(ctx, await readJson(req)), 201));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods("POST");
