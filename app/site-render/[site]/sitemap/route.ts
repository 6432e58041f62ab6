import { findSiteView } from "@/app/_site/context";
import { href, listingPath } from "@/app/_site/links";
import { sitemapXml, type SitemapEntry } from "@/lib/sites/render/sitemap";
import { searchSite, MAX_PUBLIC_PER_PAGE } from "@/lib/sites/public-search";
import { siteLocationPaths } from "@/lib/sites/locations";
import { publicCollections, publicEntries } from "@/lib/cms/public-cms";

/** Most URLs one sitemap file may hold is 50,000; listings are capped so all languages fit. */
const MAX_LISTINGS = 12_000;

/** `/sitemap.xml`: home, catalogue, every location page, listing and CMS entry, in every enabled language. */
export async function GET(_req: Request, ctx: { params: Promise<{ site: string }> }) {
  const { site: s } = await ctx.params;
  const site = await findSiteView(s, "pt-BR");
  if (!site) return new Response("Site not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const entries: SitemapEntry[] = [{ path: "/" }, { path: "/imoveis" }];
  for (const l of await siteLocationPaths(site.db, site.row)) entries.push({ path: l.path });
  const perPage = MAX_PUBLIC_PER_PAGE;
  for (let page = 1; (page - 1) * perPage < MAX_LISTINGS; page++) {
    const res = await searchSite(site.db, site.row, { q: "*", sort_by: "publishedAt:desc", per_page: perPage, page });
    for (const h of res.hits) entries.push({ path: listingPath(h.document) });
    if (page * perPage >= res.found) break;
  }
  for (const c of (await publicCollections(site.db, site.row)).collections) {
    const { entries: list } = await publicEntries(site.db, site.row, c.slug, { limit: 100, offset: 0 });
    for (const e of list) entries.push({ path: `/${c.slug}/${e.slug}`, lastmod: e.updatedAt });
  }
  const xml = sitemapXml(site.origin, site.languages, entries, (path, locale) => href({ base: site.base, locale: locale as typeof site.locale }, path));
  return new Response(xml, { headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=600" } });
}
