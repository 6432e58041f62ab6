import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { getProperty, updateProperty } from "@/lib/listings/properties";

type P = { propertyId: string };

export const GET = apiRoute<P>(async ({ db, actor, params }) => json(await getProperty(db, actor, pathId(params.propertyId, "property"))));

export const PATCH = apiRoute<P>(async ({ req, db, actor, params }) =>
  json(await updateProperty(db, actor, pathId(params.propertyId, "property"), await readJson(req))),
);
