import { headers } from "next/headers";
import { PROXY_MARK_HEADER, proxyMark } from "@/lib/sites/render/proxy-mark";
import { SITE_LOCALES, type SiteLocale } from "@/lib/sites/render/host-routing";
import { findSiteView, type SiteView } from "./context";

export type ProxiedSite = { locale: SiteLocale | null; missing: string | null; key: string | null; site: SiteView | null; path: string };

/**
 * What the proxy said about this request (proxy.ts), for the 404 pages that render outside a
 * site's layout: its locale, what it found missing, and the site. Read only next to the proxy's
 * mark, so a client's own copies of these headers (on a path the proxy does not see) count for nothing.
 */
export async function proxiedSite(): Promise<ProxiedSite> {
  const h = await headers();
  if (h.get(PROXY_MARK_HEADER) !== proxyMark()) return { locale: null, missing: null, key: null, site: null, path: "/" };
  const header = h.get("x-next-intl-locale");
  const locale = SITE_LOCALES.find((l) => l === header) ?? null;
  const key = h.get("x-site-key");
  const missing = h.get("x-site-missing");
  // Next.js renders a page's not-found boundaries along with every page (unseen unless it turns
  // out missing): the site is looked up only when the proxy sent the request to the 404, so a
  // found page does not pay for a second site frame. No site (or the database failing now): the
  // caller's plain page, never an error on a 404.
  const site = locale && key && missing && missing !== "site" ? await findSiteView(key, locale).catch(() => null) : null;
  return { locale, missing, key, site, path: h.get("x-site-path") || "/" };
}
