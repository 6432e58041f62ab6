import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { getOffer } from "@/lib/offers/offers";

export const GET = apiRoute<{ id: string }>(async ({ params, ctx }) => json(await getOffer(ctx, pathId(params.id, "offer"))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods("GET");
