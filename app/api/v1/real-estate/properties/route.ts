import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { createProperty } from "@/lib/listings/properties";

export const POST = apiRoute(async ({ req, db, actor }) => json(await createProperty(db, actor, await readJson(req)), 201));
