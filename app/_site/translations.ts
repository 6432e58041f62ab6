import { getLocale } from "next-intl/server";
import { _createCache, _createIntlFormatters, createTranslator } from "use-intl/core";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import ptBR from "@/messages/pt-BR.json";
import { DEFAULT_LOCALE, SITE_LOCALES, type SiteLocale } from "@/lib/sites/render/host-routing";

const MESSAGES: Record<SiteLocale, typeof ptBR> = { "pt-BR": ptBR, en, es };
const TIME_ZONE = "America/Sao_Paulo";

/**
 * next-intl's `getTranslations`, with the compiled messages and `Intl` formatters kept for the
 * life of the process instead of one request: next-intl builds both anew for every request (its
 * cache is React's per-request `cache`), which re-parses each ICU message a page uses and
 * constructs its `Intl.PluralRules` and `NumberFormat`s again (about 0.45 ms of a listing page's
 * 90 messages). The messages are the same files i18n/request.ts gives next-intl, and the locale
 * is the request's, as next-intl reads it.
 */
export async function getTranslations<NS extends keyof typeof ptBR>(namespace: NS) {
  return translator(asLocale(await getLocale()), namespace);
}

const perLocale = new Map<SiteLocale, { cache: ReturnType<typeof _createCache>; formatters: ReturnType<typeof _createIntlFormatters> }>();
const translators = new Map<string, unknown>();

export function translator<NS extends keyof typeof ptBR>(locale: SiteLocale, namespace: NS) {
  const key = `${locale}\u0000${namespace}`;
  let t = translators.get(key) as ReturnType<typeof make<NS>> | undefined;
  if (!t) translators.set(key, (t = make(locale, namespace)));
  return t;
}

function make<NS extends keyof typeof ptBR>(locale: SiteLocale, namespace: NS) {
  let shared = perLocale.get(locale);
  if (!shared) {
    const cache = _createCache();
    perLocale.set(locale, (shared = { cache, formatters: _createIntlFormatters(cache) }));
  }
  return createTranslator({ locale, messages: MESSAGES[locale], namespace, timeZone: TIME_ZONE, _cache: shared.cache, _formatters: shared.formatters });
}

const asLocale = (l: string): SiteLocale => ((SITE_LOCALES as readonly string[]).includes(l) ? (l as SiteLocale) : DEFAULT_LOCALE);
