import type { DbOrTx } from "../../db/client";
import type { TenantRow } from "../../db/schema";
import { config } from "../config";
import { siteByDomain } from "../sites/load-site";
import { domainCandidates, hostWithoutPort, isServiceHost, normalizeHost } from "../sites/render/host-routing";

/** Where a share page was asked for: the service itself, the shared share domain, or a site of the tenant. */
export type ShareHostKind = "service" | "share_domain" | "site";

/**
 * Whether a tenant's link may open on this host, and as what. A link opens on the service's own
 * hosts, on `{its tenant's slug}.{SHARE_DOMAIN}`, and on the domains of the tenant's active sites;
 * anywhere else (another tenant's subdomain or site) it is unknown, so one agency's site never
 * shows another agency's listing under its own name.
 */
export async function shareHostKind(db: DbOrTx, rawHost: string | null, tenant: Pick<TenantRow, "id" | "slug">, serviceHosts: ReadonlySet<string>): Promise<ShareHostKind | null> {
  const host = normalizeHost(rawHost);
  if (isServiceHost(host, serviceHosts)) return "service";
  // A site's own domain first: a host that is both (the demo's `demo.localhost:3000`) follows the site.
  for (const d of domainCandidates(host)) {
    const site = await siteByDomain(db, d);
    if (site && site.tenantId === tenant.id && site.active) return "site";
  }
  const share = normalizeHost(config().SHARE_DOMAIN);
  if (share && (host === `${tenant.slug}.${share}` || hostWithoutPort(host) === `${tenant.slug}.${hostWithoutPort(share)}`)) return "share_domain";
  return null;
}
