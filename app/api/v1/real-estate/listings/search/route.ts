import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";
import { ListingSearchQuery, searchListings } from "@/lib/search/listing-search";

export const GET = apiRoute(async ({ req, db, actor }) => json(await searchListings(db, actor, parseQuery(req.url, ListingSearchQuery))));
