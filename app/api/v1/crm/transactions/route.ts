import { parseQuery } from "@/lib/http/query";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { ListTransactionsQuery } from "@/lib/transactions/schemas";
import { createTransaction, listTransactions } from "@/lib/transactions/transactions";

export const GET = apiRoute(async ({ req, ctx }) => json(await listTransactions(ctx, parseQuery(req.url, ListTransactionsQuery))));

/** Opens a transaction from a deal and an accepted offer, or directly from a deal (`transaction.created`). */
export const POST = apiRoute(async ({ req, ctx }) => json(await createTransaction(ctx, await readJson(req)), 201));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
