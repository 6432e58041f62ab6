import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { publicEntries } from "@/lib/cms/public-cms";
import { EntriesQuery } from "@/lib/cms/cms-schemas";
import { loadPublicSite } from "@/lib/sites/load-site";

export const GET = publicRoute<{ siteId: string; collection: string }>("content", async ({ req, db, params }) => {
  const q = parseQuery(req.url, EntriesQuery);
  return json(await publicEntries(db, await loadPublicSite(db, params.siteId), params.collection, q));
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
