import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { parseQuery } from "@/lib/http/query";
import { apiRoute, json } from "@/lib/http/route";
import { listShareViews, ListViewsQuery } from "@/lib/share/share-links";

export const GET = apiRoute<{ id: string }>(async ({ req, params, ctx }) =>
  json(await listShareViews(ctx, { id: pathId(params.id, "share link"), q: parseQuery(req.url, ListViewsQuery) })),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
