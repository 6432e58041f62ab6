import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { pathId } from "@/lib/http/path-id";
import { updateMember } from "@/lib/tenants/members";

export const PATCH = apiRoute<{ id: string }>(async ({ req, db, actor, params }) =>
  json(await updateMember(db, actor, pathId(params.id, "member"), await readJson(req))),
);
