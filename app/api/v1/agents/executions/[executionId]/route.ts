import { getExecution } from "@/lib/agents/executions";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";

type P = { executionId: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getExecution(ctx, pathId(params.executionId, "agent execution"))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
