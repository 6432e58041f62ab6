import { DB_RETRY_AFTER_SECONDS } from "@/lib/http/db-errors";
import { messageBody, NEUTRAL_BRANDING, shareDocument } from "./document";
import { isShareLocale, shareTranslator } from "./i18n";

/**
 * The page every rendered surface (site pages, share links, the pricing tool) answers while the
 * database is unreachable: 503 with `Retry-After`, a short "back soon" in the visitor's language,
 * never cached, so a crawler or a messaging app's preview tries again instead of keeping an error.
 */
export function unavailablePage(locale: string | null | undefined): Response {
  const lang = isShareLocale(locale) ? locale : "pt-BR";
  const t = shareTranslator(lang);
  const title = t("share.unavailableTitle");
  const doc = shareDocument({ lang, title, description: "", branding: NEUTRAL_BRANDING, t, body: messageBody(title, t("share.unavailableText")) });
  return new Response(doc.value, {
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
export function localeOfPath(pathname: string): string {
  const m = /^(?:\/s\/[^/]+)?\/(en|es)(?:\/|$)/.exec(pathname);
  return m ? m[1] : "pt-BR";
}
