import type { DbOrTx } from "../../db/client";
import type { SiteRow } from "../../db/schema";
import { publicCollections, publicEntries } from "../cms/public-cms";
import { toSearchRequest } from "../search/params";
import { searchEngine } from "../search/search-engine";
import { MAX_PUBLIC_PER_PAGE } from "./public-search";
import { toPublicDocument } from "./public-document";
import { siteLocationPaths } from "./locations";
import type { SitemapEntry } from "./render/sitemap";
import { siteCatalogue, type SiteCatalogue } from "./site-catalogue";

type Doc = Record<string, unknown>;

/**
 * Listings per sitemap file. The protocol allows 50,000 URLs a file and every listing is listed
 * once per language: 10,000 listings are 30,000 URLs with the three languages, leaving room.
 */
export const SITEMAP_LISTINGS_PER_FILE = 10_000;
/** URLs one sitemap file may hold (the protocol's limit); each entry is a URL per language. */
const MAX_URLS_PER_FILE = 50_000;

/**
 * What `/sitemap.xml` answers: one file while everything fits in it, else an index naming
 * `pages-N` files (home, catalogue, location pages, CMS entries) and `listings-N` files of
 * `perFile` entries each (10,000 entries are 30,000 URLs with the three languages).
 */
export function sitemapPlan(
  pageEntries: number,
  listings: number,
  languages: number,
  perFile = SITEMAP_LISTINGS_PER_FILE,
): { single: true } | { single: false; parts: string[] } {
  if (listings <= perFile && (pageEntries + listings) * languages <= MAX_URLS_PER_FILE) return { single: true };
  const files = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);
  return { single: false, parts: [...files("pages", Math.max(1, Math.ceil(pageEntries / perFile))), ...files("listings", Math.ceil(listings / perFile))] };
}

/** Listings read per search while a file is built: the most a search may return (Typesense's limit too). */
const BATCH = MAX_PUBLIC_PER_PAGE;

/**
 * How many listings the site's catalogue shows: what decides between one sitemap and an index of
 * several. `catalogue`: the site's, when the caller has it already (one read per request).
 */
export async function sitemapListingCount(db: DbOrTx, site: SiteRow, catalogue?: SiteCatalogue): Promise<number> {
  const { scope, criteria } = catalogue ?? (await siteCatalogue(db, site));
  const req = toSearchRequest({ q: "*", per_page: 0 }, { maxPerPage: BATCH, extraFilters: criteria });
  return (await (await searchEngine()).search(scope, req)).found;
}

/**
 * The catalogue's listings `offset` to `offset + limit` (newest published first, ties by creation
 * and id, so consecutive files neither repeat nor skip one), as public documents: what the listing
 * pages and `/api/sites` show, never more. `batch` (at most 250) must divide `offset`.
 */
export async function sitemapListings(db: DbOrTx, site: SiteRow, offset: number, limit: number, batch = BATCH, catalogue?: SiteCatalogue): Promise<Doc[]> {
  if (offset % batch) throw new Error(`offset ${offset} is not a multiple of the batch ${batch}`);
  const { scope, criteria } = catalogue ?? (await siteCatalogue(db, site));
  const engine = await searchEngine();
  const out: Doc[] = [];
  for (let at = offset; at < offset + limit; at += batch) {
    // No total: a file needs its listings, not a count of the whole catalogue per batch. Not
    // through the result cache: a crawl would fill it with the whole catalogue, never read again.
    const req = {
      ...toSearchRequest({ q: "*", sort_by: "publishedAt:desc", per_page: batch, page: at / batch + 1 }, { maxPerPage: batch, extraFilters: criteria }),
      total: false as const,
      cache: false as const,
    };
    const { hits } = await engine.search(scope, req);
    for (const h of hits.slice(0, offset + limit - at)) out.push(toPublicDocument(h.document, { detail: false }));
    if (hits.length < batch) break;
  }
  return out;
}

/** Everything but listings: home, catalogue, every location page and every published CMS entry. */
export async function sitemapPageEntries(db: DbOrTx, site: SiteRow): Promise<SitemapEntry[]> {
  const entries: SitemapEntry[] = [{ path: "/" }, { path: "/imoveis" }];
  for (const l of await siteLocationPaths(db, site)) entries.push({ path: l.path });
  for (const c of (await publicCollections(db, site)).collections) {
    // 100 a read: a blog outgrows one page.
    for (let offset = 0; ; offset += 100) {
      const { entries: list, total } = await publicEntries(db, site, c.slug, { limit: 100, offset });
      for (const e of list) entries.push({ path: `/${c.slug}/${e.slug}`, lastmod: e.updatedAt });
      if (!list.length || offset + list.length >= total) break;
    }
  }
  return entries;
}
