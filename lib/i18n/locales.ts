/**
 * The languages every rendered page speaks (sites, share pages, the pricing tool, the preview):
 * Portuguese without a path prefix, `/en` and `/es` when the tenant enables them. The one list;
 * routing, messages and language switchers read it from here.
 */
export const LOCALES = ["pt-BR", "en", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "pt-BR";

export const isLocale = (v: unknown): v is Locale => typeof v === "string" && (LOCALES as readonly string[]).includes(v);

/** Each language in its own words (a language switcher's accessible names). */
export const LOCALE_NAMES: Record<Locale, string> = { "pt-BR": "Português", en: "English", es: "Español" };
/** What a switcher shows: `PT`, `EN`, `ES`. */
export const LOCALE_SHORT: Record<Locale, string> = { "pt-BR": "PT", en: "EN", es: "ES" };

/** The path prefix of a language: "" for Portuguese, `/en`, `/es`. */
export const localePrefix = (locale: Locale): string => (locale === DEFAULT_LOCALE ? "" : `/${locale}`);
