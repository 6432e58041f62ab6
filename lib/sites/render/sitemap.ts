/**
 * sitemap.xml and robots.txt of a rendered site, as text from plain inputs (pure, tested).
 * Every URL is listed in every enabled language, each entry with its `xhtml:link` alternates.
 */
export type SitemapEntry = { path: string; lastmod?: string | null };

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function sitemapXml(origin: string, locales: string[], entries: SitemapEntry[], localize: (path: string, locale: string) => string): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const e of entries) {
    const alternates = locales.map((l) => `<xhtml:link rel="alternate" hreflang="${l}" href="${esc(origin + localize(e.path, l))}"/>`).join("");
    for (const l of locales) {
      out.push(`<url><loc>${esc(origin + localize(e.path, l))}</loc>${e.lastmod ? `<lastmod>${esc(e.lastmod)}</lastmod>` : ""}${alternates}</url>`);
    }
  }
  out.push("</urlset>");
  return out.join("\n");
}

/** A sitemap index: the sitemap files of a site too big for one (protocol: 50,000 URLs a file). */
export function sitemapIndexXml(locs: string[]): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
  for (const loc of locs) out.push(`<sitemap><loc>${esc(loc)}</loc></sitemap>`);
  out.push("</sitemapindex>");
  return out.join("\n");
}

export function robotsTxt(origin: string, opts: { indexable: boolean }): string {
  if (!opts.indexable) return "User-agent: *\nDisallow: /\n";
  return `User-agent: *\nAllow: /\nDisallow: /lead\n\nSitemap: ${origin}/sitemap.xml\n`;
}
