import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { loadPublicSite } from "@/lib/sites/load-site";
import { PropertyDetailQuery, propertyDetail } from "@/lib/sites/property-detail";

export const GET = publicRoute<{ siteId: string; id: string }>("site", async ({ req, db, params }) => {
  const q = parseQuery(req.url, PropertyDetailQuery);
  const site = await loadPublicSite(db, params.siteId, { inactive: "forbidden" });
  return json(await propertyDetail(db, site, params.id, q));
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
