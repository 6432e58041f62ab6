import { rejectDistribution } from "@/lib/deals/transfer";
import { pathId } from "@/lib/http/path-id";
import { readOptionalJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";

/** The broker declines the lead (`distribution.rejected`); the queue offers it to the next member. */
export const POST = apiRoute<{ id: string }>(async ({ req, params, ctx }) =>
  json(await rejectDistribution(ctx, { id: pathId(params.id, "deal"), body: await readOptionalJson(req) })),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
