import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { joinNetwork } from "@/lib/search/networks";

export const POST = apiRoute(async ({ req, db, actor }) => json(await joinNetwork(db, actor, await readJson(req))));
