import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { createNetwork, listNetworks } from "@/lib/search/networks";

export const GET = apiRoute(async ({ db, actor }) => json(await listNetworks(db, actor)));

export const POST = apiRoute(async ({ req, db, actor }) => json(await createNetwork(db, actor, await readJson(req)), 201));
