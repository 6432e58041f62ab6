import type { SiteLocale } from "@/lib/sites/render/host-routing";
import { slugify } from "@/lib/sites/locations";

type Where = { base: string; locale: SiteLocale };

/** A site-relative address in a locale: `/imoveis` -> `/en/imoveis`, or `/s/{id}/en/imoveis` on preview. */
export function href(site: Where, path: string, locale: SiteLocale = site.locale): string {
  const prefix = `${site.base}${locale === "pt-BR" ? "" : `/${locale}`}`;
  if (path === "/" || path === "") return prefix || "/";
  return `${prefix}${path}`;
}

/** `/imovel/AP0042/apartamento-3-quartos-pinheiros`: the code finds it, the slug reads well. */
export function listingPath(doc: { listingCode?: unknown; id?: unknown; title?: unknown }): string {
  const code = String(doc.listingCode ?? doc.id ?? "");
  const slug = slugify(String(doc.title ?? ""))
    .slice(0, 80)
    .replace(/-+$/, "");
  return `/imovel/${encodeURIComponent(code)}${slug ? `/${slug}` : ""}`;
}

/** Query string of a catalogue state, without empty values, in a stable order. */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** The same address without the preview base: what a form sends as its landing page. */
export const localPath = (site: Where, path: string, locale: SiteLocale = site.locale) => href({ base: "", locale }, path, locale);
