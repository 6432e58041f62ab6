import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import type { SiteRow } from "../../db/schema";
import { DomainError, invalid } from "../errors/domain-errors";
import { loadTenant } from "../tenants/load-tenant";
import { UUID_PATTERN } from "../schemas/uuid";
import { loadPublicSite, siteByDomain, siteNotFound } from "./load-site";
import { processGlobal } from "../util/process-global";

export const ResolveQuery = z.strictObject({
  domain: z.string().trim().min(1).max(260).optional(),
  siteId: z.string().trim().max(100).optional(),
});

const Option = z.object({ id: z.string(), label: z.string() });
/** The site configuration of spec 2 §2.1 (resolve and public-config). */
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

type PublicConfig = z.infer<typeof PublicSiteConfigSchema>;

/**
 * Built configurations, kept a few seconds per process: resolve is the hottest public call (every
 * page view of every site). The key holds the site row's `updatedAt`, so a change to the site shows
 * at once; a change to the tenant's settings (languages, property types) shows within the TTL.
 * `cachedAt` says when the configuration was built.
 */
const CONFIG_TTL_MS = 5_000;
const configs = processGlobal("site-configs", () => new LRUCache<string, PublicConfig>({ max: 2000, ttl: CONFIG_TTL_MS }));

/** Every configuration this process keeps (the tenant's settings changed: lib/page-cache/invalidate.ts). */
export function forgetAllSiteConfigs(): void {
  configs.clear();
}

export async function publicConfig(db: DbOrTx, site: SiteRow): Promise<PublicConfig> {
  const key = `${site.id}:${site.updatedAt.getTime()}`;
  const hit = configs.get(key);
  if (hit) return hit;
  const built = await buildPublicConfig(db, site);
  configs.set(key, built);
  return built;
}

/** The site configuration of spec 2 §2.1, built field by field (nothing internal can slip in). */
async function buildPublicConfig(db: DbOrTx, site: SiteRow): Promise<PublicConfig> {
  const { settings } = await loadTenant(db, site.tenantId);
  const languages = ["pt-BR" as const, ...settings.listingLanguages.filter((l) => l !== "pt-BR")];
  return {
    id: site.id,
    name: site.name,
    domain: site.domain,
    configuration: {
      puck_data: site.configuration.puck_data,
      // Menu items were checked by `SiteConfigurationSchema` on write; the column types them `unknown`.
      siteConfiguration: site.configuration.siteConfiguration as PublicConfig["configuration"]["siteConfiguration"],
      otherConfigs: site.configuration.otherConfigs ?? null,
    },
    tenantId: site.tenantId,
    listingCriteria: site.listingCriteria,
    tenantConfig: {
      propertyFeatures: settings.propertyFeatures,
      buildingFeatures: settings.buildingFeatures,
      primaryMarketEnabled: settings.primaryMarketEnabled,
      propertyTypes: settings.propertyTypes,
      supportedLanguages: languages,
    },
    metaPixel: site.metaPixel ?? null,
    cachedAt: Date.now(),
  };
}

/**
 * `GET /resolve`: by `domain` or `siteId` (at least one; 400 `Invalid parameter` otherwise).
 * Unknown or inactive: 404 `Site not found`; not published: 404 `Site not published`.
 */
export async function resolveSite(db: DbOrTx, q: z.infer<typeof ResolveQuery>) {
  if (!q.domain && !q.siteId) throw invalid("Invalid parameter", "invalid_parameter");
  let site: SiteRow | null;
  if (q.siteId) {
    if (!UUID_PATTERN.test(q.siteId)) throw invalid("Invalid parameter", "invalid_parameter");
    site = await loadPublicSite(db, q.siteId);
  } else {
    site = await siteByDomain(db, q.domain!);
  }
  if (!site?.active) throw siteNotFound();
  if (!site.published) throw new DomainError("not_found", "not_found", "Site not published");
  return publicConfig(db, site);
}
