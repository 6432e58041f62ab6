import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { loadPublicSite } from "@/lib/sites/load-site";
import { LocationsQuery, siteLocations } from "@/lib/sites/locations";

export const GET = publicRoute<{ siteId: string }>("locations", async ({ req, db, params }) => {
  const q = parseQuery(req.url, LocationsQuery);
  return json(await siteLocations(db, await loadPublicSite(db, params.siteId), q));
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
