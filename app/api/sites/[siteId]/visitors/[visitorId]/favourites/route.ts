import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/run";
import { loadPublicSite } from "@/lib/sites/load-site";
import { syncFavourites } from "@/lib/visitors/sync-favourites";

/** A browser's favourites on the site (and what it compared or viewed): stored, and added to its deal once it is a lead. */
export const POST = publicRoute<{ siteId: string; visitorId: string }>("visitor_favourites", async ({ req, db, params }) =>
  json(await syncFavourites(db, await loadPublicSite(db, params.siteId), params.visitorId, await readJson(req))),
);
export const OPTIONS = publicPreflight;
export const { GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST", "OPTIONS");
