import { acceptDistribution } from "@/lib/deals/transfer";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";

/** The broker a lead was distributed to accepts it (`distribution.accepted`); no body. */
export const POST = apiRoute<{ id: string }>(async ({ params, ctx }) => json(await acceptDistribution(ctx, pathId(params.id, "deal"))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
