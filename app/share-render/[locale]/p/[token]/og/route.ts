import { getDb } from "@/db/client";
import { DB_RETRY_AFTER_SECONDS, isConnectionError } from "@/lib/http/db-errors";
import { logger } from "@/lib/log/logger";
import { openSharePage } from "@/lib/share/share-page";
import { visitOf } from "@/lib/http/share-route";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translator";
import { serviceHostSet } from "@/lib/sites/render/host-routing";
import { ogCacheKey, ogContent, ogVersion } from "@/app/share-render/_share/og";
import { renderOgImage } from "@/app/share-render/_share/og-image";

type Segment = { params: Promise<{ locale: string; token: string }> };
const serviceHosts = serviceHostSet(process.env.SERVICE_HOSTS);

/**
 * `/p/{token}/og`: the link preview image (1200×630 PNG) a messaging app shows. Resolved like the
 * page but without a password or grant and without counting an open, so a protected or expired
 * link gives the tenant's branding only. Rendered once per content version, then from memory.
 */
export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: Segment) {
  const { locale: l, token } = await params;
  const locale = isLocale(l) ? l : DEFAULT_LOCALE;
  try {
    const db = await getDb();
    const page = isLocale(l)
      ? await openSharePage(db, token, { host: req.headers.get("host"), serviceHosts, locale, visit: visitOf(req), record: false })
      : ({ state: "not_found" } as const);
    const content = ogContent(page, locale, translator(locale));
    const started = performance.now();
    const { png, cached } = await renderOgImage(ogCacheKey(token, locale, ogVersion(content)), content);
    return new Response(png, {
      status: page.state === "not_found" ? 404 : 200,
      headers: {
        "content-type": "image/png",
        "cache-control": page.state === "open" ? "public, max-age=300" : "public, max-age=60",
        "x-content-type-options": "nosniff",
        "server-timing": `og;dur=${(performance.now() - started).toFixed(1)};desc="${cached ? "cached" : "rendered"}"`,
      },
    });
  } catch (err) {
    if (isConnectionError(err)) {
      return new Response("preview unavailable, retry soon", {
        status: 503,
        headers: { "content-type": "text/plain", "cache-control": "no-store", "retry-after": String(DB_RETRY_AFTER_SECONDS) },
      });
    }
    logger().error({ err }, "share preview image failed");
    return new Response("preview unavailable", { status: 500, headers: { "content-type": "text/plain" } });
  }
}
