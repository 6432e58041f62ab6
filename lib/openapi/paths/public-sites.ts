import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { PublicSiteConfigSchema, ResolveQuery } from "../../sites/public-config";
import { PUBLIC_NOTES, PUBLIC_SECURITY, publicErrors, publicOk, siteIdParam } from "../public-common";

export function registerPublicSitePaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/sites/resolve",
    tags: ["Public sites"],
    operationId: "resolveSite",
    summary: "Resolve a site by domain or id",
    description:
      "The configuration of an active, published site, found by `domain` (the host name the visitor used) or `siteId`; " +
      `also served at \`/site/api/sites/resolve\`. Rate limit: 100 requests per minute.\n\n${PUBLIC_NOTES}`,
    security: PUBLIC_SECURITY,
    request: { query: ResolveQuery },
    responses: {
      200: publicOk("The site configuration (spec 2 §2.1).", PublicSiteConfigSchema),
      ...publicErrors(
        {
          400: "Neither `domain` nor `siteId`, or `siteId` is not a UUID: `Invalid parameter`.",
          404: "`Site not found` (unknown or inactive) or `Site not published`.",
        },
        100,
      ),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/sites/{siteId}/public-config",
    tags: ["Public sites"],
    operationId: "getPublicSiteConfig",
    summary: "A site's public configuration",
    description: `Same structure as resolve, by site id; answers for unpublished sites too (previews). Rate limit: 100 requests per minute.\n\n${PUBLIC_NOTES}`,
    security: PUBLIC_SECURITY,
    request: { params: siteIdParam },
    responses: {
      200: publicOk("The site configuration.", PublicSiteConfigSchema),
      ...publicErrors({ 404: "`Site not found`: unknown or inactive site." }, 100),
    },
  });
}
