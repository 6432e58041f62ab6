import { getRequestConfig } from "next-intl/server";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/locales";
import { MESSAGES, TIME_ZONE } from "@/lib/i18n/translator";

/** next-intl's per-request configuration: the locale the proxy (or a page) set, and the same messages as every other page. */
export default getRequestConfig(async ({ requestLocale, locale: explicit }) => {
  const requested = explicit ?? (await requestLocale);
  const locale = isLocale(requested) ? requested : DEFAULT_LOCALE;
  return { locale, messages: MESSAGES[locale], timeZone: TIME_ZONE };
});
