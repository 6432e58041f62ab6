import { deleteDeal, getDeal, updateDeal } from "@/lib/deals/deals";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/method-not-allowed";

type P = { id: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getDeal(ctx, pathId(params.id, "deal"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) => json(await updateDeal(ctx, { id: pathId(params.id, "deal"), body: await readJson(req) })));

export const DELETE = apiRoute<P>(async ({ params, ctx }) => json(await deleteDeal(ctx, pathId(params.id, "deal"))));

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
