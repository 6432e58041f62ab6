import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { json } from "@/lib/http/run";
import { loadPublicSite } from "@/lib/sites/load-site";
import { publicConfig } from "@/lib/sites/public-config";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const GET = publicRoute<{ siteId: string }>("site", async ({ db, params }) => json(await publicConfig(db, await loadPublicSite(db, params.siteId))));
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET", "OPTIONS");
