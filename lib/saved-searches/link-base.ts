import type { SiteRow } from "../../db/schema";
import { domainOfHost } from "../sites/domain/domain-name";

/**
 * The address links in a site's messages start with: the `Origin` the visitor's browser sent when
 * it names the site's own host (so a local `http://demo.localhost:3000` works), else
 * `https://{domain}`. Never another host: a caller cannot make our messages link elsewhere.
 */
export function siteLinkBase(site: Pick<SiteRow, "domain">, origin: string | null): string {
  if (origin) {
    try {
      const u = new URL(origin);
      if ((u.protocol === "https:" || u.protocol === "http:") && domainOfHost(u.host) === site.domain) return u.origin;
    } catch {
      // not a URL: the site's own address below
    }
  }
  return `https://${site.domain}`;
}
