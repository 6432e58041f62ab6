import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";
import { ListingSearchQuery, searchListings } from "@/lib/search/listing-search";

export const GET = apiRoute(async ({ req, ctx }) => json(await searchListings(ctx, parseQuery(req.url, ListingSearchQuery))));
