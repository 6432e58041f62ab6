import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb, type Db } from "@/db/client";
import type { SiteRow } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-errors";
import { loadPublicSite, siteByDomain } from "@/lib/sites/load-site";
import { publicConfig } from "@/lib/sites/public-config";
import { domainCandidates, parseSiteKey, SITE_LOCALES, type SiteKey, type SiteLocale } from "@/lib/sites/render/host-routing";

export type PublicSiteConfig = Awaited<ReturnType<typeof publicConfig>>;

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

const isLocale = (v: string): v is SiteLocale => (SITE_LOCALES as readonly string[]).includes(v);

/**
 * The site a request is for, through the same `lib/sites` functions as `/api/sites` (their rows
 * and configurations are cached a few seconds per process). By host: an active, published site;
 * by preview id: an active site, published or not. Unknown, or a locale the tenant has not
 * enabled: the not-found page. Memoised per request (React `cache`).
 */
export const loadSiteView = cache(async (siteSegment: string, localeSegment: string): Promise<SiteView> => {
  const view = await findSiteView(siteSegment, localeSegment);
  if (!view) notFound();
  return view;
});

/** The same, null when there is no such site (route handlers answer their own 404). */
export async function findSiteView(siteSegment: string, localeSegment: string): Promise<SiteView | null> {
  const key = parseSiteKey(siteSegment);
  if (!key || !isLocale(localeSegment)) return null;
  const db = await getDb();
  let row: SiteRow | null = null;
  if (key.kind === "domain") {
    for (const d of domainCandidates(key.host)) {
      row = await siteByDomain(db, d);
      if (row) break;
    }
    if (!row || !row.active || !row.published) return null;
  } else {
    row = await orNull(loadPublicSite(db, key.siteId));
    if (!row) return null;
  }
  const config = await publicConfig(db, row);
  const languages = config.tenantConfig.supportedLanguages.filter(isLocale);
  if (!languages.includes(localeSegment)) return null;
  const h = await headers();
  const host = h.get("host") ?? "localhost";
  const proto = h.get("x-forwarded-proto")?.split(",")[0]?.trim() || (/^(localhost|127\.|\[::1\])|\.localhost(:\d+)?$/.test(host) ? "http" : "https");
  return {
    db, row, config, key, locale: localeSegment, languages,
    base: key.kind === "preview" ? `/s/${key.siteId}` : "",
    origin: `${proto}://${host}`,
    preview: key.kind === "preview",
    name: config.configuration.siteConfiguration.brand.name || config.name,
  };
}

/** A lib/ verb's "not found" becomes the not-found page; every other error propagates. */
export async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof DomainError && (err.kind === "not_found" || err.kind === "invalid")) return null;
    throw err;
  }
}

export async function orNotFound<T>(p: Promise<T>): Promise<T> {
  const v = await orNull(p);
  if (v === null) notFound();
  return v;
}
