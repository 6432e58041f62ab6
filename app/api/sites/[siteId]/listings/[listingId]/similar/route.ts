import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { loadPublicSite } from "@/lib/sites/load-site";
import { SimilarQuery, similarListings } from "@/lib/sites/similar";

export const GET = publicRoute<{ siteId: string; listingId: string }>("content", async ({ req, db, params }) => {
  const q = parseQuery(req.url, SimilarQuery);
  return json(await similarListings(db, await loadPublicSite(db, params.siteId), params.listingId, q));
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
