import { createDeal, listDeals } from "@/lib/deals/deals";
import { ListDealsQuery } from "@/lib/deals/list-query";
import { CreatedDealSchema } from "@/lib/deals/serialize";
import { parseQuery } from "@/lib/http/query";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const GET = apiRoute(async ({ req, ctx }) => json(await listDeals(ctx, parseQuery(req.url, ListDealsQuery))));

/** The spec answers a create with the short form (id, title, dealType, stage, status, currency, createdAt). */
export const POST = apiRoute(async ({ req, ctx }) => json(CreatedDealSchema.parse(await createDeal(ctx, await readJson(req))), 201));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
