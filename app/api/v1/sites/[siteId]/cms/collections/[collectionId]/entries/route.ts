import { TenantEntriesQuery } from "@/lib/cms/cms-schemas";
import { createEntry, listEntries } from "@/lib/cms/entries";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { parseQuery } from "@/lib/http/query";
import { readJson } from "@/lib/http/read-json";
import { apiRoute, json } from "@/lib/http/route";

type P = { siteId: string; collectionId: string };
const admin = { permission: "tenant.admin" } as const;
const ids = (p: P) => ({ siteId: pathId(p.siteId, "site"), collectionId: pathId(p.collectionId, "CMS collection") });

export const GET = apiRoute<P>(async ({ req, ctx, params }) => json(await listEntries(ctx, ids(params), parseQuery(req.url, TenantEntriesQuery))), admin);
export const POST = apiRoute<P>(async ({ req, ctx, params }) => json(await createEntry(ctx, { ...ids(params), body: await readJson(req) }), 201), admin);

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods("GET", "POST");
