import { ListExecutionsQuery, listExecutions } from "@/lib/agents/executions";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";

type P = { id: string };

export const GET = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await listExecutions(ctx, { id: pathId(params.id, "agent"), query: parseQuery(req.url, ListExecutionsQuery) })),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
