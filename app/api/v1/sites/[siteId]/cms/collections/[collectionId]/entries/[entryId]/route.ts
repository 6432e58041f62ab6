import { deleteEntry, getEntry, updateEntry } from "@/lib/cms/entries";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";

type P = { siteId: string; collectionId: string; entryId: string };
const admin = { permission: "tenant.admin" } as const;
const ids = (p: P) => ({ siteId: pathId(p.siteId, "site"), collectionId: pathId(p.collectionId, "CMS collection"), id: pathId(p.entryId, "CMS entry") });

export const GET = apiRoute<P>(async ({ ctx, params }) => json(await getEntry(ctx, ids(params))), admin);
export const PATCH = apiRoute<P>(async ({ req, ctx, params }) => json(await updateEntry(ctx, { ...ids(params), body: await readJson(req) })), admin);
export const DELETE = apiRoute<P>(async ({ ctx, params }) => json(await deleteEntry(ctx, ids(params))), admin);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
