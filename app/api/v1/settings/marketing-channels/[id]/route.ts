import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { updateChannel } from "@/lib/leads/marketing-channels";

export const PATCH = apiRoute<{ id: string }>(async ({ req, params, ctx }) =>
  json(await updateChannel(ctx, { id: pathId(params.id, "marketing channel"), body: await readJson(req) })),
  { permission: "tenant.admin" },
);
