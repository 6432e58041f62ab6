import { otherMethods } from "@/lib/http/method-not-allowed";
import { parseQuery } from "@/lib/http/query";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { createShareLink, listShareLinks, ListShareLinksQuery } from "@/lib/share/share-links";

export const GET = apiRoute(async ({ req, ctx }) => json(await listShareLinks(ctx, parseQuery(req.url, ListShareLinksQuery))));

export const POST = apiRoute(async ({ req, ctx }) => json(await createShareLink(ctx, await readJson(req)), 201));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
