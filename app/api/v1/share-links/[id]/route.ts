import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { deactivateShareLink, getShareLink, updateShareLink } from "@/lib/share/share-links";

type P = { id: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getShareLink(ctx, pathId(params.id, "share link"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await updateShareLink(ctx, { id: pathId(params.id, "share link"), body: await readJson(req) })),
);

/** Deactivates the link (its access log stays). */
export const DELETE = apiRoute<P>(async ({ params, ctx }) => json(await deactivateShareLink(ctx, pathId(params.id, "share link"))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
