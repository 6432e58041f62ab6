import { otherMethods } from "@/lib/http/method-not-allowed";
import { pathId } from "@/lib/http/path-id";
import { apiRoute, json } from "@/lib/http/route";
import { verifySiteDomain } from "@/lib/sites/domain/verify-domain";

/** Proves the site's custom domain through its DNS TXT record, or holds a name the service hands out. */
export const POST = apiRoute<{ siteId: string }>(async ({ ctx, params }) => json(await verifySiteDomain(ctx, pathId(params.siteId, "site"))), {
  permission: "tenant.admin",
});

/** Other methods answer a JSON 405 with `Allow`, and OPTIONS lists the real ones. */
export const { OPTIONS, GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST");
