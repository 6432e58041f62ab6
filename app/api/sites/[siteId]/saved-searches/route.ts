import { clientAddress } from "@/lib/http/client-address";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/run";
import { createSavedSearch, SavedSearchCreatedSchema } from "@/lib/saved-searches/create";
import { siteLinkBase } from "@/lib/saved-searches/link-base";
import { loadPublicSite } from "@/lib/sites/load-site";

/** A visitor saves the catalogue's filters for alerts ("Avise-me"): stored pending, a confirmation message follows. */
const post = publicRoute<{ siteId: string }>("saved_search", async ({ req, db, params }) => {
  const site = await loadPublicSite(db, params.siteId);
  const body = await readJson(req);
  const created = await createSavedSearch(db, site, body, {
    via: "api",
    linkBase: siteLinkBase(site, req.headers.get("origin")),
    page: req.headers.get("referer"),
    clientAddress: clientAddress(req.headers),
    userAgent: req.headers.get("user-agent"),
  });
  return json(SavedSearchCreatedSchema.parse(created), 201);
});

export const POST = async (req: Request, segment?: { params: Promise<{ siteId: string }> }) => {
  const res = await post(req, segment);
  res.headers.set("cache-control", "private, no-store");
  return res;
};
export const OPTIONS = publicPreflight;
export const { GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST", "OPTIONS");
