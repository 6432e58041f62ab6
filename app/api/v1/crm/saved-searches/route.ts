import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { ListSavedSearchesQuery, listSavedSearches } from "@/lib/saved-searches/crm-list";

/** The tenant's saved searches (site visitors' alerts), newest first, paged like every list. */
export const GET = apiRoute(async ({ req, ctx }) => json(await listSavedSearches(ctx, parseQuery(req.url, ListSavedSearchesQuery))));

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
