import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { loadPublicSite } from "@/lib/sites/load-site";
import { SiteMapQuery, siteMap } from "@/lib/sites/site-map";

/** The search's rate-limit group: a map view is a search of the catalogue. */
export const GET = publicRoute<{ siteId: string }>("content", async ({ req, db, params }) => {
  const q = parseQuery(req.url, SiteMapQuery);
  return json(await siteMap(db, await loadPublicSite(db, params.siteId), q));
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
