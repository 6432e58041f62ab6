import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { loadPublicSite } from "@/lib/sites/load-site";
import { listingVisitSlots, VisitSlotsQuery } from "@/lib/visits/visit-slots";

export const GET = publicRoute<{ siteId: string; listingId: string }>("visit_slots", async ({ req, db, params }) => {
  const q = parseQuery(req.url, VisitSlotsQuery);
  return json(await listingVisitSlots(db, await loadPublicSite(db, params.siteId), params.listingId, q));
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
