import { apiRoute, json } from "@/lib/http/route";
import { parseQuery } from "@/lib/http/query";
import { ListListingsQuery, listListings } from "@/lib/listings/listings";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const GET = apiRoute(async ({ req, ctx }) => json(await listListings(ctx, parseQuery(req.url, ListListingsQuery))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
