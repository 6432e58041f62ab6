import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { NoQuery, siteBuilding } from "@/lib/sites/developments";
import { loadPublicSite } from "@/lib/sites/load-site";

export const GET = publicRoute<{ siteId: string; buildingId: string }>("content", async ({ req, db, params }) => {
  parseQuery(req.url, NoQuery);
  return json(await siteBuilding(db, await loadPublicSite(db, params.siteId), params.buildingId));
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
