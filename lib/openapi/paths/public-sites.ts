import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ResolveQuery } from "../../sites/public-config";
import { PUBLIC_NOTES, PUBLIC_SECURITY, publicErrors, publicOk, siteIdParam } from "../public-common";

const Option = z.object({ id: z.string(), label: z.string() });
export const PublicSiteConfigSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    domain: z.string(),
    configuration: z.object({
      puck_data: z.record(z.string(), z.unknown()),
      siteConfiguration: z.object({
        brand: z.object({ logoUrl: z.string().nullable(), name: z.string().nullable(), primaryColor: z.string().nullable() }),
        menu: z.array(
          z.object({
            label: z.string(),
            label_en: z.string().optional().describe("The label on /en pages; blank or absent: `label`."),
            label_es: z.string().optional().describe("The label on /es pages; blank or absent: `label`."),
            href: z.string(),
          }),
        ),
        footer: z.record(z.string(), z.unknown()),
      }),
      otherConfigs: z.record(z.string(), z.unknown()).nullable(),
    }),
    tenantId: z.uuid(),
    listingCriteria: z.object({ propertyTypes: z.array(z.string()), locations: z.array(z.string()), marketType: z.enum(["primary", "secondary"]).optional() }),
    tenantConfig: z.object({
      propertyFeatures: z.array(Option),
      buildingFeatures: z.array(Option),
      primaryMarketEnabled: z.boolean(),
      propertyTypes: z.array(Option),
      supportedLanguages: z.array(z.enum(["pt-BR", "en", "es"])),
    }),
    metaPixel: z.object({ pixelId: z.string(), events: z.object({ viewContent: z.boolean(), search: z.boolean(), lead: z.boolean() }) }).nullable(),
    cachedAt: z.number().meta({ description: "When this configuration was read, in epoch milliseconds." }),
  })
  .meta({ id: "PublicSiteConfig" });

export function registerPublicSitePaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get", path: "/api/sites/resolve", tags: ["Public sites"], operationId: "resolveSite",
    summary: "Resolve a site by domain or id",
    description:
      "The configuration of an active, published site, found by `domain` (the host name the visitor used) or `siteId`; " +
      `also served at \`/site/api/sites/resolve\`. Rate limit: 100 requests per minute.\n\n${PUBLIC_NOTES}`,
    security: PUBLIC_SECURITY,
    request: { query: ResolveQuery },
    responses: {
      200: publicOk("The site configuration (spec 2 §2.1).", PublicSiteConfigSchema),
      ...publicErrors({ 400: "Neither `domain` nor `siteId`, or `siteId` is not a UUID: `Invalid parameter`.", 404: "`Site not found` (unknown or inactive) or `Site not published`." }, 100),
    },
  });
  r.registerPath({
    method: "get", path: "/api/sites/{siteId}/public-config", tags: ["Public sites"], operationId: "getPublicSiteConfig",
    summary: "A site's public configuration",
    description: `Same structure as resolve, by site id; answers for unpublished sites too (previews). Rate limit: 100 requests per minute.\n\n${PUBLIC_NOTES}`,
    security: PUBLIC_SECURITY,
    request: { params: siteIdParam },
    responses: { 200: publicOk("The site configuration.", PublicSiteConfigSchema), ...publicErrors({ 404: "`Site not found`: unknown or inactive site." }, 100) },
  });
}
