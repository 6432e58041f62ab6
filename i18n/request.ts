import { getRequestConfig } from "next-intl/server";
import { DEFAULT_LOCALE, SITE_LOCALES, type SiteLocale } from "@/lib/sites/render/host-routing";

const isLocale = (v: unknown): v is SiteLocale => typeof v === "string" && (SITE_LOCALES as readonly string[]).includes(v);

/** next-intl's per-request configuration: the locale the proxy (or a page) set, and its messages. */
export default getRequestConfig(async ({ requestLocale, locale: explicit }) => {
  const requested = explicit ?? (await requestLocale);
  const locale = isLocale(requested) ? requested : DEFAULT_LOCALE;
  return {
    locale,
    messages: (await import(`../messages/${locale}.json`)).default,
    timeZone: "America/Sao_Paulo",
  };
});
