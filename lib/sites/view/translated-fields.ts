import type { Locale } from "../../i18n/locales";

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
export function translatedFields<T extends Record<string, unknown>>(obj: T, locale: Locale): T {
  if (locale === "pt-BR") return obj;
  const out: Record<string, unknown> = { ...obj };
  for (const k of TEXT_FIELDS) {
    const t = obj[`${k}_${locale}`];
    if (typeof obj[k] === "string" && typeof t === "string" && t.trim()) out[k] = t;
  }
  return out as T;
}
