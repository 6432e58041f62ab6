import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { sites } from "../../db/schema";
import { config } from "../config";
import type { SharingConfig } from "../tenants/sharing-config";

const scheme = (host: string) => (/^(localhost|[^:]*\.localhost)(:\d+)?$/.test(host) ? "http" : "https");

/**
 * The address a recipient opens, per the tenant's `defaultShareDomain`: the shared share domain
 * under the tenant's slug, one of its sites, or its own domain and path template. Pricing tools
 * open under `/c/`, every other kind under `/p/`.
 */
export async function shareUrl(db: DbOrTx, tenant: { id: string; slug: string }, cfg: SharingConfig, token: string, kind: string): Promise<string> {
  const page = kind === "pricing_tool" ? "c" : "p";
  const d = cfg.defaultShareDomain;
  if (d.type === "custom") {
    const host = d.custom.domain;
    return `${scheme(host)}://${host}${d.custom.pathTemplate.replace("{token}", encodeURIComponent(token))}`;
  }
  if (d.type === "site") {
    // Only a site that holds its domain serves on it; otherwise the share domain below.
    const [site] = await db
      .select({ domain: sites.domain })
      .from(sites)
      .where(and(eq(sites.id, d.siteId), eq(sites.tenantId, tenant.id), eq(sites.domainStatus, "active")))
      .limit(1);
    if (site) {
      // A local name is served by this installation on its own port (stored names have none): the share domain's.
      const port = site.domain.endsWith(".localhost") ? (/:\d+$/.exec(config().SHARE_DOMAIN)?.[0] ?? "") : "";
      return `${scheme(site.domain)}://${site.domain}${port}/${page}/${token}`;
    }
  }
  const host = `${tenant.slug}.${config().SHARE_DOMAIN}`;
  return `${scheme(host)}://${host}/${page}/${token}`;
}
