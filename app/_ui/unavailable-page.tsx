import { renderDocument } from "@/app/_ui/static-markup";
import { DB_RETRY_AFTER_SECONDS } from "@/lib/http/db-errors";
import { DEFAULT_LOCALE, isLocale, type Locale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translator";
import { Message, NEUTRAL_BRANDING, ShareDocument } from "@/app/share-render/_share/document";

/**
 * The page every rendered surface (site pages, share links, the pricing tool) answers while the
 * database is unreachable: 503 with `Retry-After`, a short "back soon" in the visitor's language,
 * never cached, so a crawler or a messaging app's preview tries again instead of keeping an error.
 */
export async function unavailablePage(locale: string | null | undefined): Promise<Response> {
  const lang = isLocale(locale) ? locale : DEFAULT_LOCALE;
  const t = translator(lang);
  const title = t("share.unavailableTitle");
  const html = await renderDocument(
    <ShareDocument lang={lang} title={title} description="" branding={NEUTRAL_BRANDING} t={t}>
      <Message title={title} text={t("share.unavailableText")} />
    </ShareDocument>,
  );
  return new Response(html, {
    status: 503,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "retry-after": String(DB_RETRY_AFTER_SECONDS),
      "x-robots-tag": "noindex",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'",
    },
  });
}

/** `/en/...` and `/es/...` (also under a preview's `/s/{id}`) pick the language; anything else is Portuguese. */
export function localeOfPath(pathname: string): Locale {
  const first = /^(?:\/s\/[^/]+)?\/([^/]+)/.exec(pathname)?.[1];
  return isLocale(first) && first !== DEFAULT_LOCALE ? first : DEFAULT_LOCALE;
}
