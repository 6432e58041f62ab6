import { revokeApiKey } from "@/lib/auth/api-keys";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";

export const DELETE = apiRoute<{ id: string }>(async ({ db, actor, params }) =>
  json(await revokeApiKey(db, actor, pathId(params.id, "API key"))),
);
