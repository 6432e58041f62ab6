import type { SiteLocale } from "@/lib/sites/render/host-routing";

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function nf(locale: SiteLocale, key: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = `${locale}|n|${key}`;
  let f = cache.get(k) as Intl.NumberFormat | undefined;
  if (!f) cache.set(k, (f = new Intl.NumberFormat(locale, opts)));
  return f;
}

/** R$ 1.250.000 / R$1,250,000 / 1.250.000 R$: reais in the visitor's locale, no cents. */
export const formatMoney = (locale: SiteLocale, v: number, cents = false) =>
  nf(locale, cents ? "brl2" : "brl0", { style: "currency", currency: "BRL", maximumFractionDigits: cents ? 2 : 0, minimumFractionDigits: cents ? 2 : 0 }).format(v);

export const formatNumber = (locale: SiteLocale, v: number, digits = 0) => nf(locale, `num${digits}`, { maximumFractionDigits: digits }).format(v);

export function formatDate(locale: SiteLocale, iso: string | Date | null | undefined): string {
  if (!iso) return "";
  const d = typeof iso === "string" ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return "";
  const k = `${locale}|d`;
  let f = cache.get(k) as Intl.DateTimeFormat | undefined;
  if (!f) cache.set(k, (f = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "America/Sao_Paulo" })));
  return f.format(d);
}

export const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : typeof v === "string" && v.trim() && Number.isFinite(Number(v)) ? Number(v) : null);
export const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Listing text in the visitor's language, Portuguese when the translation is blank. */
/**
 * `lang="pt-BR"` for a listing text shown in Portuguese on an English or Spanish page (its
 * translation is blank), so screen readers read it with a Portuguese voice; else nothing.
 */
export function fallbackLang(doc: Record<string, unknown>, field: "title" | "description", locale: SiteLocale): "pt-BR" | undefined {
  return locale !== "pt-BR" && !str(doc[`${field}_${locale}`]).trim() && str(doc[field]).trim() ? "pt-BR" : undefined;
}

export function localized(doc: Record<string, unknown>, field: "title" | "description", locale: SiteLocale): string {
  if (locale !== "pt-BR") {
    const t = str(doc[`${field}_${locale}`]).trim();
    if (t) return t;
  }
  return str(doc[field]);
}

/**
 * Fields that hold words for people: only these take a translation. Link targets (`href`, `src`),
 * filters, sizes and collection names stay as written, so a language cannot change what a block
 * shows or links to.
 */
const TEXT_FIELDS = new Set(["title", "subtitle", "text", "content", "html", "caption", "alt", "buttonLabel", "label", "description", "address"]);

/**
 * Tenant-written text in the visitor's language: each text field `x` of a block, the page root,
 * a menu item or the footer is replaced by its `x_en` / `x_es` sibling when that is filled in (the
 * convention of the listings' `title_en`), else kept in Portuguese. Other fields pass through.
 */
export function translatedFields<T extends Record<string, unknown>>(obj: T, locale: SiteLocale): T {
  if (locale === "pt-BR") return obj;
  const out: Record<string, unknown> = { ...obj };
  for (const k of TEXT_FIELDS) {
    const t = obj[`${k}_${locale}`];
    if (typeof obj[k] === "string" && typeof t === "string" && t.trim()) out[k] = t;
  }
  return out as T;
}
