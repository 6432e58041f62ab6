import { parseQuery } from "@/lib/http/query";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { createOffer, listOffers } from "@/lib/offers/offers";
import { ListOffersQuery } from "@/lib/offers/schemas";

export const GET = apiRoute(async ({ req, ctx }) => json(await listOffers(ctx, parseQuery(req.url, ListOffersQuery))));

export const POST = apiRoute(async ({ req, ctx }) => json(await createOffer(ctx, await readJson(req)), 201));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
