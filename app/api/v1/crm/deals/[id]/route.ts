import { deleteDeal, getDeal, updateDeal } from "@/lib/deals/deals";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";

type P = { id: string };

export const GET = apiRoute<P>(async ({ params, ctx }) => json(await getDeal(ctx, pathId(params.id, "deal"))));

export const PATCH = apiRoute<P>(async ({ req, params, ctx }) =>
  json(await updateDeal(ctx, { id: pathId(params.id, "deal"), body: await readJson(req) })),
);

export const DELETE = apiRoute<P>(async ({ params, ctx }) => json(await deleteDeal(ctx, pathId(params.id, "deal"))));
