import { createTranslator } from "use-intl/core";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import ptBR from "@/messages/pt-BR.json";
import shareEn from "@/messages/share/en.json";
import shareEs from "@/messages/share/es.json";
import sharePt from "@/messages/share/pt-BR.json";

export const SHARE_LOCALES = ["pt-BR", "en", "es"] as const;
export type ShareLocale = (typeof SHARE_LOCALES)[number];
export const isShareLocale = (v: unknown): v is ShareLocale => typeof v === "string" && (SHARE_LOCALES as readonly string[]).includes(v);

const MESSAGES = {
  "pt-BR": { ...ptBR, share: sharePt },
  en: { ...en, share: shareEn },
  es: { ...es, share: shareEs },
};

export type T = (key: string, values?: Record<string, string | number>) => string;
const cache = new Map<ShareLocale, T>();

/**
 * The sites' messages (next-intl's files) plus the share pages' own, as a plain function: the share
 * components are synchronous and take it as a prop, so a preview can render them anywhere.
 */
export function shareTranslator(locale: ShareLocale): T {
  let t = cache.get(locale);
  if (!t) {
    const tr = createTranslator({ locale, messages: MESSAGES[locale] as never, timeZone: "America/Sao_Paulo" });
    t = (key, values) => (tr as unknown as (k: string, v?: Record<string, string | number>) => string)(key, values);
    cache.set(locale, t);
  }
  return t;
}

/** Whether a message exists (property type ids that have a translation). */
export function hasMessage(locale: ShareLocale, key: string): boolean {
  let node: unknown = MESSAGES[locale];
  for (const part of key.split(".")) node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === "string";
}
