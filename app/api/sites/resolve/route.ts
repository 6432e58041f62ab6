import { parseQuery } from "@/lib/http/query";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { json } from "@/lib/http/run";
import { ResolveQuery, resolveSite } from "@/lib/sites/public-config";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const GET = publicRoute("site", async ({ req, db }) => json(await resolveSite(db, parseQuery(req.url, ResolveQuery))));
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
