import { revokeApiKey } from "@/lib/auth/api-keys";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";

export const DELETE = apiRoute<{ id: string }>(async ({ params, ctx }) =>
  json(await revokeApiKey(ctx, pathId(params.id, "API key"))),
  { permission: "tenant.admin" },
);
