import { config, type Config } from "../../config";
import { DEFAULT_SERVICE_HOSTS } from "../render/host-routing";
import { isIpLiteral, parseDomain } from "./domain-name";

/**
 * How a site gets its name:
 * - `local`: under `localhost` (development and tests), held at once;
 * - `hosted`: under `SITES_BASE_DOMAIN`, a name the service hands out itself, held at once;
 * - `custom`: anything else, held only once its owner proves control of it in DNS.
 */
export type DomainKind = "local" | "hosted" | "custom";

const under = (domain: string, parent: string) => domain === parent || domain.endsWith(`.${parent}`);
/** A configured `host[:port]` as a stored name (no port, lower case, ASCII). */
const nameOf = (hostPort: string) => {
  const p = parseDomain(hostPort);
  return p.ok ? p.domain : hostPort.trim().toLowerCase();
};

let names: { from: Config; set: Set<string> } | undefined;

/** The service's own names: `SERVICE_HOSTS` plus loopback (the router's list, in stored form); worked out once per configuration. */
export function serviceHostNames(): Set<string> {
  const c = config();
  if (names?.from !== c) {
    const extra = (c.SERVICE_HOSTS ?? "").split(",").filter((h) => h.trim());
    names = { from: c, set: new Set([...DEFAULT_SERVICE_HOSTS, ...extra].map(nameOf)) };
  }
  return names.set;
}

/** `SHARE_DOMAIN` without its port. */
export const shareDomainName = () => nameOf(config().SHARE_DOMAIN);

export function domainKind(domain: string): DomainKind {
  if (domain.endsWith(".localhost")) return "local";
  const base = config().SITES_BASE_DOMAIN;
  if (base && domain.endsWith(`.${base}`)) return "hosted";
  return "custom";
}

/**
 * Why no site may take this (normalized) name, or null. The share domain and every name under it
 * carry every tenant's share links; the service's own names serve the service; an IP address is
 * no site's identity. Under `SITES_BASE_DOMAIN` a tenant takes `{its slug}.{base}` and names under
 * that, never another tenant's slug (so no one squats a name the service would hand out).
 */
export function reservedReason(domain: string, tenantSlug: string): string | null {
  if (isIpLiteral(domain)) return `'${domain}' is an IP address; a site needs a host name such as www.imobiliaria.com.br.`;
  if (serviceHostNames().has(domain)) return `'${domain}' is a host name of the service itself.`;
  const share = shareDomainName();
  if (share && under(domain, share)) return `'${domain}' is under the share domain ${share}, which serves every agency's share links.`;
  const base = config().SITES_BASE_DOMAIN;
  if (base && under(domain, base)) {
    const own = `${tenantSlug}.${base}`;
    if (!under(domain, own)) return `names under ${base} are handed out by the service: use ${own} (or a name under it).`;
  }
  return null;
}

/**
 * Host names that never serve a site, whatever a row says: the share domain and names under it,
 * the service's own names. A site stored under one before these rules (or before the setting
 * changed) stays unserved rather than answering on every tenant's share host.
 */
export function servesNoSite(domain: string): boolean {
  const share = shareDomainName();
  return serviceHostNames().has(domain) || (Boolean(share) && under(domain, share));
}
