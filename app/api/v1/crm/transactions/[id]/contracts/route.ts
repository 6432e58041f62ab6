import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { addTransactionContract } from "@/lib/transactions/contracts";

/** An e-signature envelope of the transaction, matched later by its notifications (`transaction.updated`). */
export const POST = apiRoute<{ id: string }>(async ({ req, params, ctx }) =>
  json(await addTransactionContract(ctx, { id: pathId(params.id, "transaction"), body: await readJson(req) }), 201),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
