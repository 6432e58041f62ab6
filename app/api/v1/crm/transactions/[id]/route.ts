import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { getTransaction, updateTransaction } from "@/lib/transactions/transactions";

type P = { id: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getTransaction(ctx, pathId(params.id, "transaction"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await updateTransaction(ctx, { id: pathId(params.id, "transaction"), body: await readJson(req) })),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, DELETE } = otherMethods("GET", "PATCH");
