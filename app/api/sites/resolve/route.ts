import { parseQuery } from "@/lib/http/query";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { json } from "@/lib/http/run";
import { ResolveQuery, resolveSite } from "@/lib/sites/public-config";

export const GET = publicRoute("site", async ({ req, db }) => json(await resolveSite(db, parseQuery(req.url, ResolveQuery))));
export const OPTIONS = publicPreflight;
