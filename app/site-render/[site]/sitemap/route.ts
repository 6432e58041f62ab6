import { findSiteView, type SiteView } from "@/app/_site/context";
import { href, listingPath } from "@/app/_site/links";
import { sitemapIndexXml, sitemapXml, type SitemapEntry } from "@/lib/sites/render/sitemap";
import { siteCatalogue, type SiteCatalogue } from "@/lib/sites/site-catalogue";
import { SITEMAP_LISTINGS_PER_FILE, sitemapListingCount, sitemapListings, sitemapPageEntries } from "@/lib/sites/sitemap-contents";

const xmlHeaders = { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=600" };
const notFound = () => new Response("Sitemap not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

/**
 * `/sitemap.xml`: home, catalogue, every location page, listing and CMS entry, in every enabled
 * language. A catalogue of more than `SITEMAP_LISTINGS_PER_FILE` listings gets a sitemap index
 * instead, naming `?part=pages` (everything but listings) and `?part=listings-N` files of that
 * many listings each, so every listing is in a file search engines accept (50,000 URLs at most).
 */
export async function GET(req: Request, ctx: { params: Promise<{ site: string }> }) {
  const { site: s } = await ctx.params;
  const site = await findSiteView(s, "pt-BR");
  if (!site) return new Response("Site not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const part = new URL(req.url).searchParams.get("part");
  if (part === "pages") return urlset(site, await sitemapPageEntries(site.db, site.row));
  const catalogue = await siteCatalogue(site.db, site.row);
  const files = Math.ceil((await sitemapListingCount(site.db, site.row, catalogue)) / SITEMAP_LISTINGS_PER_FILE);
  const self = site.origin + href({ base: site.base, locale: "pt-BR" }, "/sitemap.xml");
  if (part === null) {
    if (files > 1) {
      const parts = ["pages", ...Array.from({ length: files }, (_, i) => `listings-${i + 1}`)];
      return new Response(sitemapIndexXml(parts.map((p) => `${self}?part=${p}`)), { headers: xmlHeaders });
    }
    return urlset(site, [...(await sitemapPageEntries(site.db, site.row)), ...(await listingEntries(site, 1, catalogue))]);
  }
  const n = /^listings-([1-9]\d{0,5})$/.exec(part);
  if (!n || Number(n[1]) > files) return notFound();
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
