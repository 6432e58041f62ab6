import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { getProperty, updateProperty } from "@/lib/listings/properties";

type P = { propertyId: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getProperty(ctx, pathId(params.propertyId, "property"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await updateProperty(ctx, { id: pathId(params.propertyId, "property"), body: await readJson(req) })),
);
