import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { addPayment } from "@/lib/transactions/payments";

/** A slip or invoice issued at the payment provider, matched later by its notifications (`transaction.updated`). */
export const POST = apiRoute<{ id: string }>(async ({ req, params, ctx }) =>
  json(await addPayment(ctx, { id: pathId(params.id, "transaction"), body: await readJson(req) }), 201),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
