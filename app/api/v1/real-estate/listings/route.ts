import { apiRoute, json } from "@/lib/http/route";
import { parseQuery } from "@/lib/http/query";
import { ListListingsQuery, listListings } from "@/lib/listings/listings";

export const GET = apiRoute(async ({ req, ctx }) => json(await listListings(ctx, parseQuery(req.url, ListListingsQuery))));
