import type { DbOrTx } from "../../db/client";
import type { TenantRow } from "../tenants/tenant-row";
import { siteByDomain } from "../sites/load-site";
import { domainOfHost } from "../sites/domain/domain-name";
import { shareDomainName } from "../sites/domain/domain-policy";
import { isServiceHost, normalizeHost } from "../sites/render/host-routing";

/** Where a share page was asked for: the service itself, the shared share domain, or a site of the tenant. */
export type ShareHostKind = "service" | "share_domain" | "site";

/**
 * Whether a tenant's link may open on this host, and as what. A link opens on the service's own
 * hosts, on `{its tenant's slug}.{SHARE_DOMAIN}`, and on the domains of the tenant's active sites;
 * anywhere else (another tenant's subdomain or site) it is unknown, so one agency's site never
 * shows another agency's listing under its own name.
 */
export async function shareHostKind(
  db: DbOrTx,
  rawHost: string | null,
  tenant: Pick<TenantRow, "id" | "slug">,
  serviceHosts: ReadonlySet<string>,
): Promise<ShareHostKind | null> {
  const host = normalizeHost(rawHost);
  if (isServiceHost(host, serviceHosts)) return "service";
  // A site's own domain first: a host that is both (the demo's `demo.localhost:3000`) follows the site.
  const site = await siteByDomain(db, host);
  if (site && site.tenantId === tenant.id && site.active) return "site";
  // Ports are no part of a name: the share host on any port is the share host.
  const share = shareDomainName();
  if (share && domainOfHost(host) === `${tenant.slug}.${share}`) return "share_domain";
  return null;
}
