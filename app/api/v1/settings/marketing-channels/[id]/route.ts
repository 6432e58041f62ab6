import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { updateChannel } from "@/lib/leads/marketing-channels";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const PATCH = apiRoute<{ id: string }>(
  async ({ req, params, ctx }) => json(await updateChannel(ctx, { id: pathId(params.id, "marketing channel"), body: await readJson(req) })),
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, POST, PUT, DELETE } = otherMethods("PATCH");
