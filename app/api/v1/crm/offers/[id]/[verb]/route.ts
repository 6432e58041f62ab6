import { pathId } from "@/lib/http/path-id";
import { readOptionalJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { transitionOffer } from "@/lib/offers/offers";

/** One transition of the offer state machine: send, client-confirm, client-sign, counter, withdraw, accept, reject, expire. */
export const POST = apiRoute<{ id: string; verb: string }>(async ({ req, params, ctx }) =>
  json(await transitionOffer(ctx, { id: pathId(params.id, "offer"), verb: params.verb, body: await readOptionalJson(req) })),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
