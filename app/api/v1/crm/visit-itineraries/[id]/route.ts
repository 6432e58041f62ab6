import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { deleteItinerary, getItinerary, updateItinerary } from "@/lib/share/visit-itineraries";

type P = { id: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getItinerary(ctx, pathId(params.id, "visit itinerary"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await updateItinerary(ctx, { id: pathId(params.id, "visit itinerary"), body: await readJson(req) })),
);

export const DELETE = apiRoute<P>(async ({ params, ctx }) => json(await deleteItinerary(ctx, pathId(params.id, "visit itinerary"))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
