import type { SiteView } from "../context";
import { href } from "../links";

/** The tenant as a RealEstateAgent (schema.org), from its public branding and footer. */
export function agentJsonLd(site: SiteView) {
  const f = site.config.configuration.siteConfiguration.footer as Record<string, unknown>;
  const str = (k: string) => (typeof f[k] === "string" && f[k] ? (f[k] as string) : undefined);
  const logo = site.config.configuration.siteConfiguration.brand.logoUrl;
  return {
    "@context": "https://schema.org",
    "@type": "RealEstateAgent",
    name: site.name,
    url: `${site.origin}${href(site, "/")}`,
    ...(logo ? { logo: logo.startsWith("http") ? logo : `${site.origin}${logo}` } : {}),
    ...(str("phone") ? { telephone: str("phone") } : {}),
    ...(str("email") ? { email: str("email") } : {}),
    ...(str("address") ? { address: str("address") } : {}),
  };
}
