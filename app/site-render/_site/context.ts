import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import type { Db } from "@/db/client";
import type { SiteRow } from "@/db/schema";
import { decodeSegment, parseSiteKey, type SiteKey, type SiteLocale } from "@/lib/sites/render/host-routing";
import { isSiteLocale, orNull, resolveSite, type PublicSiteConfig } from "@/lib/sites/render/resolve-site";

export type { PublicSiteConfig };

/** Everything a rendered page needs to know about the site it is on. */
export type SiteView = {
  db: Db;
  row: SiteRow;
  config: PublicSiteConfig;
  key: SiteKey;
  locale: SiteLocale;
  /** Languages the tenant enabled, pt-BR first. */
  languages: SiteLocale[];
  /** `/s/{id}` on the preview path, "" on the site's own host. */
  base: string;
  /** `http://demo.localhost:3000`: the origin canonical URLs and the sitemap use. */
  origin: string;
  preview: boolean;
  name: string;
};

/**
 * The site a request is for, through the same `lib/sites` functions as `/api/sites` (their rows
 * and configurations are cached a few seconds per process). By host: an active, published site;
 * by preview id: an active site, published or not. Unknown, or a locale the tenant has not
 * enabled: the not-found page. Memoised per request (React `cache`).
 */
export const loadSiteView = (siteSegment: string, localeSegment: string): Promise<SiteView> =>
  // One key for one site: the route's segment arrives percent-encoded (`d~host%3A3000`), the
  // proxy's header (`x-site-key`, read by the 404 boundary) does not.
  loadSiteViewOnce(decodeSegment(siteSegment), localeSegment);

const loadSiteViewOnce = cache(async (siteKey: string, localeSegment: string): Promise<SiteView> => {
  const view = await findSiteView(siteKey, localeSegment);
  if (!view) notFound();
  return view;
});

/** The same, null when there is no such site (route handlers answer their own 404). */
export async function findSiteView(siteSegment: string, localeSegment: string): Promise<SiteView | null> {
  const key = parseSiteKey(siteSegment);
  if (!key || !isSiteLocale(localeSegment)) return null;
  const site = await resolveSite(key, localeSegment);
  if (typeof site === "string") return null;
  const { db, row, config, languages } = site;
  const h = await headers();
  const host = h.get("host") ?? "localhost";
  const proto = h.get("x-forwarded-proto")?.split(",")[0]?.trim() || (/^(localhost|127\.|\[::1\])|\.localhost(:\d+)?$/.test(host) ? "http" : "https");
  return {
    db,
    row,
    config,
    key,
    locale: localeSegment,
    languages,
    base: key.kind === "preview" ? `/s/${key.siteId}` : "",
    origin: `${proto}://${host}`,
    preview: key.kind === "preview",
    name: config.configuration.siteConfiguration.brand.name || config.name,
  };
}

/** A lib/ verb's "not found" (or an invalid reference) as null; every other error propagates. */
export { orNull };

export async function orNotFound<T>(p: Promise<T>): Promise<T> {
  const v = await orNull(p);
  if (v === null) notFound();
  return v;
}
