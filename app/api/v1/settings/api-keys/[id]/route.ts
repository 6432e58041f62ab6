import { revokeApiKey } from "@/lib/auth/api-keys";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const DELETE = apiRoute<{ id: string }>(async ({ params, ctx }) => json(await revokeApiKey(ctx, pathId(params.id, "API key"))), {
  permission: "tenant.admin",
});

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH } = otherMethods("DELETE");
