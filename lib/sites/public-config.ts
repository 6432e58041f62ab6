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

type PublicConfig = Awaited<ReturnType<typeof buildPublicConfig>>;

/**
 * Built configurations, kept a few seconds per process: resolve is the hottest public call (every
 * page view of every site). The key holds the site row's `updatedAt`, so a change to the site shows
 * at once; a change to the tenant's settings (languages, property types) shows within the TTL.
 * `cachedAt` says when the configuration was built.
 */
const CONFIG_TTL_MS = 5_000;
const configs = processGlobal("site-configs", () => new LRUCache<string, PublicConfig>({ max: 2000, ttl: CONFIG_TTL_MS }));

export async function publicConfig(db: DbOrTx, site: SiteRow): Promise<PublicConfig> {
  const key = `${site.id}:${site.updatedAt.getTime()}`;
  const hit = configs.get(key);
  if (hit) return hit;
  const built = await buildPublicConfig(db, site);
  configs.set(key, built);
  return built;
}

/** The site configuration of spec 2 §2.1, built field by field (nothing internal can slip in). */
async function buildPublicConfig(db: DbOrTx, site: SiteRow) {
  const { settings } = await loadTenant(db, site.tenantId);
  const languages = ["pt-BR", ...settings.listingLanguages.filter((l) => l !== "pt-BR")];
  return {
    id: site.id,
    name: site.name,
    domain: site.domain,
    configuration: {
      puck_data: site.configuration.puck_data,
      siteConfiguration: site.configuration.siteConfiguration,
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
  if (!site || !site.active) throw siteNotFound();
  if (!site.published) throw new DomainError("not_found", "not_found", "Site not published");
  return publicConfig(db, site);
}
