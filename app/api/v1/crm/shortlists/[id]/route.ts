import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { deleteShortlist, getShortlist, updateShortlist } from "@/lib/share/shortlists";

type P = { id: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getShortlist(ctx, pathId(params.id, "shortlist"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await updateShortlist(ctx, { id: pathId(params.id, "shortlist"), body: await readJson(req) })),
);

export const DELETE = apiRoute<P>(async ({ params, ctx }) => json(await deleteShortlist(ctx, pathId(params.id, "shortlist"))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
