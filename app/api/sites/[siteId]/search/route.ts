import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/run";
import { loadPublicSite } from "@/lib/sites/load-site";
import { searchSite } from "@/lib/sites/public-search";

export const POST = publicRoute<{ siteId: string }>("content", async ({ req, db, params }) =>
  json(await searchSite(db, await loadPublicSite(db, params.siteId), await readJson(req))),
);
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST", "OPTIONS");
