import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";
import { ListingSearchQuery, searchListings } from "@/lib/search/listing-search";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const GET = apiRoute(async ({ req, ctx }) => json(await searchListings(ctx, parseQuery(req.url, ListingSearchQuery))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
