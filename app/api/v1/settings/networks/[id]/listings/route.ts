import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { shareListings } from "@/lib/networks/networks";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const PUT = apiRoute<{ id: string }>(
  async ({ req, params, ctx }) => json(await shareListings(ctx, { id: pathId(params.id, "network"), body: await readJson(req) })),
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, POST, PATCH, DELETE } = otherMethods("PUT");
