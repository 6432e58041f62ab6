import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { deleteListing, getListing, updateListing } from "@/lib/listings/listings";

type P = { id: string };

export const GET = apiRoute<P>(async ({ db, actor, params }) => json(await getListing(db, actor, pathId(params.id, "listing"))));

export const PATCH = apiRoute<P>(async ({ req, db, actor, params }) =>
  json(await updateListing(db, actor, pathId(params.id, "listing"), await readJson(req))),
);

export const DELETE = apiRoute<P>(async ({ db, actor, params }) => json(await deleteListing(db, actor, pathId(params.id, "listing"))));
