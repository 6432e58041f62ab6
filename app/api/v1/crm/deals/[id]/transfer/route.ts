import { transferDeal } from "@/lib/deals/transfer";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";

/** Hands the deal to another member (`distribution.transferred`). */
export const POST = apiRoute<{ id: string }>(async ({ req, params, ctx }) =>
  json(await transferDeal(ctx, { id: pathId(params.id, "deal"), body: await readJson(req) })),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
