import { apiRoute, json } from "@/lib/http/route";
import { parseQuery } from "@/lib/http/query";
import { ListListingsQuery, listListings } from "@/lib/listings/listings";

export const GET = apiRoute(async ({ req, db, actor }) => json(await listListings(db, actor, parseQuery(req.url, ListListingsQuery))));
