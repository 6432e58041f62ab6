import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { deleteListing, getListing, updateListing } from "@/lib/listings/listings";
import { otherMethods } from "@/lib/http/method-not-allowed";

type P = { id: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getListing(ctx, pathId(params.id, "listing"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await updateListing(ctx, { id: pathId(params.id, "listing"), body: await readJson(req) })),
);

export const DELETE = apiRoute<P>(async ({ params, ctx }) => json(await deleteListing(ctx, pathId(params.id, "listing"))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
