import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { shareListings } from "@/lib/search/networks";

export const PUT = apiRoute<{ id: string }>(async ({ req, db, actor, params }) =>
  json(await shareListings(db, actor, pathId(params.id, "network"), await readJson(req))),
);
