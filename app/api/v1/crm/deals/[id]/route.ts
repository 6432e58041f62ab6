import { deleteDeal, getDeal, updateDeal } from "@/lib/deals/deals";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";

type P = { id: string };

export const GET = apiRoute<P>(async ({ db, actor, params }) => json(await getDeal(db, actor, pathId(params.id, "deal"))));

export const PATCH = apiRoute<P>(async ({ req, db, actor, params }) =>
  json(await updateDeal(db, actor, pathId(params.id, "deal"), await readJson(req))),
);

export const DELETE = apiRoute<P>(async ({ db, actor, params }) => json(await deleteDeal(db, actor, pathId(params.id, "deal"))));
