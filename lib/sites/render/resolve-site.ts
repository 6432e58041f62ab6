import { getDb, type Db } from "../../../db/client";
import type { SiteRow } from "../../../db/schema";
import { DomainError } from "../../errors/domain-errors";
import { loadPublicSite, siteByDomain } from "../load-site";
import { publicConfig } from "../public-config";
import { isLocale } from "../../i18n/locales";
import type { SiteKey, SiteLocale } from "./host-routing";

export type PublicSiteConfig = Awaited<ReturnType<typeof publicConfig>>;
export type ResolvedSite = { db: Db; row: SiteRow; config: PublicSiteConfig; languages: SiteLocale[] };

export const isSiteLocale = (v: string): v is SiteLocale => isLocale(v);

/**
 * The site a rendered page is for, through the same `lib/sites` functions as `/api/sites` (rows
 * and configurations cached a few seconds per process). By host: an active, published site; by
 * preview id: an active site, published or not. `site`: no such site; `locale`: the site exists
 * but its tenant has not enabled this language. Used by the proxy (before rendering) and by pages.
 */
export async function resolveSite(key: SiteKey, locale: string): Promise<ResolvedSite | "site" | "locale"> {
  const db = await getDb();
  let row: SiteRow | null = null;
  if (key.kind === "domain") {
    row = await siteByDomain(db, key.host);
    if (!row?.active || !row.published) return "site";
  } else {
    row = await orNull(loadPublicSite(db, key.siteId));
    if (!row) return "site";
  }
  const config = await publicConfig(db, row);
  const languages = config.tenantConfig.supportedLanguages.filter(isSiteLocale);
  if (!isSiteLocale(locale) || !languages.includes(locale)) return "locale";
  return { db, row, config, languages };
}

/** A lib/ verb's "not found" (or an invalid reference) as null; every other error propagates. */
export async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof DomainError && (err.kind === "not_found" || err.kind === "invalid")) return null;
    throw err;
  }
}
