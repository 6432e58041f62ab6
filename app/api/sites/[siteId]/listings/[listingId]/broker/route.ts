import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { parseQuery } from "@/lib/http/query";
import { json } from "@/lib/http/run";
import { BrokerQuery, listingBroker } from "@/lib/sites/brokers";
import { loadPublicSite } from "@/lib/sites/load-site";

/** 204 with no body when the listing has no broker (spec 2 §4). */
export const GET = publicRoute<{ siteId: string; listingId: string }>("content", async ({ req, db, params }) => {
  const q = parseQuery(req.url, BrokerQuery);
  const card = await listingBroker(db, await loadPublicSite(db, params.siteId), params.listingId, q);
  return card ? json(card) : new Response(null, { status: 204 });
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
