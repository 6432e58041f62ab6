import { getLocale } from "next-intl/server";
import { isLocale, DEFAULT_LOCALE } from "@/lib/i18n/locales";
import { translator, type Messages } from "@/lib/i18n/translator";

/**
 * A namespace's translator in the request's language, as next-intl reads it (the proxy's locale
 * header), from the one translator factory (`lib/i18n/translator.ts`): the compiled messages and
 * `Intl` formatters live for the process, not one request.
 */
export async function getTranslations<NS extends keyof Messages>(namespace: NS) {
  const locale = await getLocale();
  return translator(isLocale(locale) ? locale : DEFAULT_LOCALE, namespace);
}
