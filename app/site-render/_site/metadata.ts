import type { Metadata } from "next";
import type { SiteView } from "./context";
import { href } from "./links";

const OG_LOCALE = { "pt-BR": "pt_BR", en: "en_US", es: "es_ES" } as const;

/**
 * Title, description, canonical URL, hreflang alternates (every enabled language, x-default the
 * Portuguese page) and Open Graph for a site page. Preview pages and filtered catalogue pages are
 * noindex. One helper, so no page forgets its alternates.
 */
export function pageMetadata(
  site: SiteView,
  p: { title: string; description: string; path: string; noindex?: boolean; image?: string | null; type?: "website" | "article" },
): Metadata {
  const url = (l = site.locale) => `${site.origin}${href(site, p.path, l)}`;
  const languages: Record<string, string> = Object.fromEntries(site.languages.map((l) => [l, url(l)]));
  languages["x-default"] = url("pt-BR");
  const image = p.image ? (p.image.startsWith("http") ? p.image : `${site.origin}${p.image}`) : undefined;
  const index = !site.preview && !p.noindex;
  return {
    title: p.title,
    description: p.description.slice(0, 300),
    alternates: { canonical: url(), languages },
    robots: index ? { index: true, follow: true } : { index: false, follow: !site.preview },
    openGraph: {
      title: p.title,
      description: p.description.slice(0, 300),
      url: url(),
      siteName: site.name,
      locale: OG_LOCALE[site.locale],
      type: p.type ?? "website",
      ...(image ? { images: [{ url: image, alt: p.title }] } : {}),
    },
    icons: { icon: "data:," },
  };
}
