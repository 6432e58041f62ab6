import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { pathId } from "@/lib/http/path-id";
import { updateMember } from "@/lib/admin/update-member";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const PATCH = apiRoute<{ id: string }>(
  async ({ req, params, ctx }) => json(await updateMember(ctx, { id: pathId(params.id, "member"), body: await readJson(req) })),
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, POST, PUT, DELETE } = otherMethods("PATCH");
