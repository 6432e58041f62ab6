import { _createCache, _createIntlFormatters, createTranslator } from "use-intl/core";
import en from "../../messages/en.json";
import es from "../../messages/es.json";
import ptBR from "../../messages/pt-BR.json";
import shareEn from "../../messages/share/en.json";
import shareEs from "../../messages/share/es.json";
import sharePt from "../../messages/share/pt-BR.json";
import type { Locale } from "./locales";

/** Every page's words: `messages/<locale>.json`, with the share pages' own file under `share`. */
export type Messages = typeof ptBR & { share: typeof sharePt };
export const MESSAGES: Record<Locale, Messages> = {
  "pt-BR": { ...ptBR, share: sharePt },
  en: { ...en, share: shareEn },
  es: { ...es, share: shareEs },
};

export const TIME_ZONE = "America/Sao_Paulo";

type Namespace = keyof Messages;
const perLocale = new Map<Locale, { cache: ReturnType<typeof _createCache>; formatters: ReturnType<typeof _createIntlFormatters> }>();
const translators = new Map<string, unknown>();

function shared(locale: Locale) {
  let s = perLocale.get(locale);
  if (!s) {
    const cache = _createCache();
    perLocale.set(locale, (s = { cache, formatters: _createIntlFormatters(cache) }));
  }
  return { locale, messages: MESSAGES[locale], timeZone: TIME_ZONE, _cache: s.cache, _formatters: s.formatters };
}

const makeRoot = (locale: Locale) => createTranslator(shared(locale));
const make = <NS extends Namespace>(locale: Locale, namespace: NS) => createTranslator({ ...shared(locale), namespace });

/** A page's translator: every message by its full key (`listing.area`, `share.photos`). */
export type Translator = ReturnType<typeof makeRoot>;

/**
 * The one translator factory of every rendered surface (sites, share pages, the pricing tool, the
 * preview): use-intl's `createTranslator` over `messages/`, kept for the life of the process with
 * its compiled messages and `Intl` formatters (next-intl would rebuild both for every request,
 * re-parsing each ICU message a page uses). Synchronous, so a component given `t` renders the
 * same under Next.js and under `renderToStaticMarkup`. With a namespace, keys are relative to it.
 */
export function translator(locale: Locale): Translator;
export function translator<NS extends Namespace>(locale: Locale, namespace: NS): ReturnType<typeof make<NS>>;
export function translator(locale: Locale, namespace?: Namespace) {
  const key = `${locale}\u0000${namespace ?? ""}`;
  let t = translators.get(key);
  if (!t) translators.set(key, (t = namespace ? make(locale, namespace) : makeRoot(locale)));
  return t;
}

/** A message by a key built at run time (`propertyType.${id}`), for the few places that need one. */
export type LooseT = (key: string, values?: Record<string, string | number>) => string;
export const loose = (t: Translator): LooseT => t as unknown as LooseT;
