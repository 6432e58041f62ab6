import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { getProperty, updateProperty } from "@/lib/listings/properties";
import { otherMethods } from "@/lib/http/method-not-allowed";

type P = { propertyId: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getProperty(ctx, pathId(params.propertyId, "property"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await updateProperty(ctx, { id: pathId(params.propertyId, "property"), body: await readJson(req) })),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, DELETE } = otherMethods("GET", "PATCH");
