import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { createTemplate, listTemplates } from "@/lib/messaging/templates";

export const GET = apiRoute<{ id: string }>(async ({ params, ctx }) => json(await listTemplates(ctx, pathId(params.id, "messaging channel"))), {
  permission: "tenant.admin",
});

export const POST = apiRoute<{ id: string }>(
  async ({ req, params, ctx }) => json(await createTemplate(ctx, { id: pathId(params.id, "messaging channel"), body: await readJson(req) }), 201),
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
