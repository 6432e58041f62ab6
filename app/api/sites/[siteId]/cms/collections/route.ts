import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { publicCollections } from "@/lib/cms/public-cms";
import { NoCmsQuery } from "@/lib/cms/cms-schemas";
import { loadPublicSite } from "@/lib/sites/load-site";

export const GET = publicRoute<{ siteId: string }>("content", async ({ req, db, params }) => {
  parseQuery(req.url, NoCmsQuery);
  return json(await publicCollections(db, await loadPublicSite(db, params.siteId)));
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
