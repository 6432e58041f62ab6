import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { createProperty } from "@/lib/listings/properties";

export const POST = apiRoute(async ({ req, ctx }) => json(await createProperty(ctx, await readJson(req)), 201));
