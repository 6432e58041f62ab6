import { deleteAgent, getAgent, updateAgent } from "@/lib/agents/agents";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";

type P = { id: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getAgent(ctx, pathId(params.id, "agent"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) => json(await updateAgent(ctx, { id: pathId(params.id, "agent"), body: await readJson(req) })), {
  permission: "tenant.admin",
});

export const DELETE = apiRoute<P>(
  async ({ params, ctx }) => {
    await deleteAgent(ctx, pathId(params.id, "agent"));
    return new Response(null, { status: 204 });
  },
  { permission: "tenant.admin" },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
