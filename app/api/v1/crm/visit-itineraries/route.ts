import { otherMethods } from "@/lib/http/method-not-allowed";
import { parseQuery } from "@/lib/http/query";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { createItinerary, listItineraries, ListItinerariesQuery } from "@/lib/share/visit-itineraries";

export const GET = apiRoute(async ({ req, ctx }) => json(await listItineraries(ctx, parseQuery(req.url, ListItinerariesQuery))));

export const POST = apiRoute(async ({ req, ctx }) => json(await createItinerary(ctx, await readJson(req)), 201));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
