import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";
import { deleteSite, getSite, updateSite } from "@/lib/sites/sites";
import { otherMethods } from "@/lib/http/method-not-allowed";

type P = { siteId: string };
const admin = { permission: "tenant.admin" } as const;

export const GET = apiRoute<P>(async ({ ctx, params }) => json(await getSite(ctx, pathId(params.siteId, "site"))), admin);

export const PATCH = apiRoute<P>(
  async ({ req, ctx, params }) => json(await updateSite(ctx, { id: pathId(params.siteId, "site"), body: await readJson(req) })),
  admin,
);

export const DELETE = apiRoute<P>(async ({ ctx, params }) => json(await deleteSite(ctx, pathId(params.siteId, "site"))), admin);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
