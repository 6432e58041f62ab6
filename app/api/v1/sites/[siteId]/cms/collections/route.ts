import { createCollection, listCollections } from "@/lib/cms/collections";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";

type P = { siteId: string };
const admin = { permission: "tenant.admin" } as const;

export const GET = apiRoute<P>(async ({ ctx, params }) => json(await listCollections(ctx, pathId(params.siteId, "site"))), admin);
export const POST = apiRoute<P>(
  async ({ req, ctx, params }) => json(await createCollection(ctx, { siteId: pathId(params.siteId, "site"), body: await readJson(req) }), 201),
  admin,
);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
