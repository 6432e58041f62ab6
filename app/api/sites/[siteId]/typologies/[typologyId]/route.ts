import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { TypologyQuery, siteTypology } from "@/lib/sites/developments";
import { loadPublicSite } from "@/lib/sites/load-site";

export const GET = publicRoute<{ siteId: string; typologyId: string }>("content", async ({ req, db, params }) => {
  const q = parseQuery(req.url, TypologyQuery);
  return json(await siteTypology(db, await loadPublicSite(db, params.siteId), params.typologyId, q));
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
