import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { addDealContract, listDealContracts } from "@/lib/transactions/contracts";

type P = { id: string };

/** Every contract of the deal, its transactions' included. */
export const GET = apiRoute<P>(async ({ params, ctx }) => json(await listDealContracts(ctx, pathId(params.id, "deal"))));

/** A contract of the deal itself, without a transaction. */
export const POST = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await addDealContract(ctx, { dealId: pathId(params.id, "deal"), body: await readJson(req) }), 201),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
