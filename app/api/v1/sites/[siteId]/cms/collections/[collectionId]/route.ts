import { deleteCollection, updateCollection } from "@/lib/cms/collections";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";

type P = { siteId: string; collectionId: string };
const admin = { permission: "tenant.admin" } as const;
const ids = (p: P) => ({ siteId: pathId(p.siteId, "site"), id: pathId(p.collectionId, "CMS collection") });

export const PATCH = apiRoute<P>(async ({ req, ctx, params }) => json(await updateCollection(ctx, { ...ids(params), body: await readJson(req) })), admin);
export const DELETE = apiRoute<P>(async ({ ctx, params }) => json(await deleteCollection(ctx, ids(params))), admin);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { GET, HEAD, OPTIONS, POST, PUT } = otherMethods("PATCH", "DELETE");
