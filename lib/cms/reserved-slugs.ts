import { SHARE_PAGES } from "../sites/render/host-routing";

/**
 * First path segments a rendered site already answers (app/site-render, proxy.ts): a CMS
 * collection is served at `/{slug}`, so one of these would never be reached, or would sit under
 * a page of the site. `blog` is not among them: the site has no built-in blog, its blog is a
 * collection like any other (`/{collection}` is the only route that serves `/blog`).
 */
const RESERVED: Record<string, string> = {
  imoveis: "the site's listing search",
  imovel: "the listing pages",
  empreendimento: "the development pages",
  contato: "the contact page",
  comparar: "the compare view of favourites",
  lead: "the lead form",
  c: "the pricing tool",
  s: "site previews",
  api: "the API",
  site: "the API's CDN address (/site/api)",
  en: "the English pages",
  es: "the Spanish pages",
  "pt-br": "the Portuguese address prefix",
  "sitemap.xml": "the sitemap",
  "robots.txt": "the robots file",
  "site-render": "an internal route",
  "share-render": "an internal route",
  "pricing-render": "an internal route",
  ...Object.fromEntries(SHARE_PAGES.map((p) => [p, "share links"])),
};

/** Why `slug` cannot name a collection, or null. */
export function reservedSlugReason(slug: string): string | null {
  const what = RESERVED[slug.toLowerCase()];
  return what ? `'${slug}' is reserved: /${slug} is ${what} on the site; choose another slug` : null;
}
