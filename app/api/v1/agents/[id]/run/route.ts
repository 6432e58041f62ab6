import { runAgentNow } from "@/lib/agents/executions";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";

type P = { id: string };

/** 202: the execution is queued; the background job runs it. */
export const POST = apiRoute<P>(
  async ({ req, params, ctx }) => json(await runAgentNow(ctx, { id: pathId(params.id, "agent"), body: await readJson(req) }), 202),
  {
    permission: "tenant.admin",
  },
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
