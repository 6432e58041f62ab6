import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { updateChannel } from "@/lib/leads/marketing-channels";

export const PATCH = apiRoute<{ id: string }>(async ({ req, db, actor, params }) =>
  json(await updateChannel(db, actor, pathId(params.id, "marketing channel"), await readJson(req))),
);
