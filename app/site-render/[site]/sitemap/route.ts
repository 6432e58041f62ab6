import { findSiteView, type SiteView } from "@/app/site-render/_site/context";
import { href, listingPath } from "@/app/site-render/_site/links";
import { sitemapIndexXml, sitemapXml, type SitemapEntry } from "@/lib/sites/render/sitemap";
import { siteCatalogue, type SiteCatalogue } from "@/lib/sites/site-catalogue";
import { SITEMAP_LISTINGS_PER_FILE, sitemapListingCount, sitemapListings, sitemapPageEntries, sitemapPlan } from "@/lib/sites/sitemap-contents";

const xmlHeaders = { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=600" };
const notFound = () => new Response("Sitemap not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

/**
 * `/sitemap.xml`: home, catalogue, every location page, listing and CMS entry, in every enabled
 * language. When that is more than one file may hold (over `SITEMAP_LISTINGS_PER_FILE` listings,
 * or 50,000 URLs), a sitemap index instead names `?part=pages-N` and `?part=listings-N` files of
 * that many entries each (`?part=pages` is `pages-1`), so every URL is in a file search engines accept.
 */
export async function GET(req: Request, ctx: { params: Promise<{ site: string }> }) {
  const { site: s } = await ctx.params;
  const site = await findSiteView(s, "pt-BR");
  if (!site) return new Response("Site not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const part = new URL(req.url).searchParams.get("part");
  const pages = /^pages(?:-([1-9]\d{0,5}))?$/.exec(part ?? "");
  if (pages) {
    const n = Number(pages[1] ?? 1);
    const entries = (await sitemapPageEntries(site.db, site.row)).slice((n - 1) * SITEMAP_LISTINGS_PER_FILE, n * SITEMAP_LISTINGS_PER_FILE);
    return entries.length || n === 1 ? urlset(site, entries) : notFound();
  }
  const catalogue = await siteCatalogue(site.db, site.row);
  const count = await sitemapListingCount(site.db, site.row, catalogue);
  if (part === null) {
    const pageEntries = await sitemapPageEntries(site.db, site.row);
    const plan = sitemapPlan(pageEntries.length, count, site.languages.length);
    if (plan.single) return urlset(site, [...pageEntries, ...(await listingEntries(site, 1, catalogue))]);
    const self = site.origin + href({ base: site.base, locale: "pt-BR" }, "/sitemap.xml");
    return new Response(sitemapIndexXml(plan.parts.map((p) => `${self}?part=${p}`)), { headers: xmlHeaders });
  }
  const n = /^listings-([1-9]\d{0,5})$/.exec(part);
  if (!n || Number(n[1]) > Math.ceil(count / SITEMAP_LISTINGS_PER_FILE)) return notFound();
  return urlset(site, await listingEntries(site, Number(n[1]), catalogue));
}

function urlset(site: SiteView, entries: SitemapEntry[]): Response {
  const xml = sitemapXml(site.origin, site.languages, entries, (path, locale) => href({ base: site.base, locale: locale as typeof site.locale }, path));
  return new Response(xml, { headers: xmlHeaders });
}

/** The listings of file `n` (1-based). */
async function listingEntries(site: SiteView, n: number, catalogue: SiteCatalogue): Promise<SitemapEntry[]> {
  const docs = await sitemapListings(site.db, site.row, (n - 1) * SITEMAP_LISTINGS_PER_FILE, SITEMAP_LISTINGS_PER_FILE, undefined, catalogue);
  return docs.map((d) => ({ path: listingPath(d) }));
}
