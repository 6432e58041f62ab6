import { apiRoute, json } from "@/lib/http/route";
import { readJson } from "@/lib/http/read-json";
import { pathId } from "@/lib/http/path-id";
import { updateMember } from "@/lib/tenants/members";

export const PATCH = apiRoute<{ id: string }>(async ({ req, params, ctx }) =>
  json(await updateMember(ctx, { id: pathId(params.id, "member"), body: await readJson(req) })),
  { permission: "tenant.admin" },
);
