import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { getAvailability, putAvailability } from "@/lib/visits/availability";

type P = { id: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getAvailability(ctx, pathId(params.id, "member"))));

export const PUT = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await putAvailability(ctx, { memberId: pathId(params.id, "member"), body: await readJson(req) })),
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PATCH, DELETE } = otherMethods("GET", "PUT");
