import { getDb } from "@/db/client";
import { isConnectionError } from "@/lib/http/db-errors";
import { logger } from "@/lib/log/logger";
import { grantCookieName, GRANT_SECONDS } from "@/lib/share/password-grant";
import { openSharePage, type SharePage } from "@/lib/share/share-page";
import { visitOf } from "@/lib/share/share-route";
import { serviceHostSet } from "@/lib/sites/render/host-routing";
import { localized } from "@/app/_site/format";
import { contactBar, coverOf, type Agent, type Languages, type ShareView } from "./components";
import { memberDoc, memberListingBody, shareBody } from "./pages";
import { messageBody, NEUTRAL_BRANDING, passwordBody, shareDocument } from "./document";
import type { Html } from "./html";
import { isShareLocale, shareTranslator, type ShareLocale } from "./i18n";
import { ogCacheKey, ogContent, ogVersion } from "./og";
import { unavailablePage } from "./unavailable";

const serviceHosts = serviceHostSet(process.env.SERVICE_HOSTS);

export type ShareParams = { locale: string; token: string; listingId?: string };

/** `/en/p/{token}` on the host the recipient used (the locale prefix is absent for Portuguese). */
export const pagePath = (locale: string, token: string) => `${locale === "pt-BR" ? "" : `/${locale}`}/p/${token}`;

export function originOf(req: Request): string {
  const host = req.headers.get("host") ?? "localhost";
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || (/^(localhost|127\.|\[::1\])|\.localhost(:\d+)?$/.test(host) ? "http" : "https");
  return `${proto}://${host}`;
}

const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  // A link can be deactivated or protected at any moment: never from a cache.
  "cache-control": "private, no-store",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex, nofollow",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'",
};

const respond = (body: Html, status: number, extra: Record<string, string> = {}) => new Response(body.value, { status, headers: { ...HEADERS, ...extra } });

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

function notFoundPage(locale: ShareLocale): Response {
  const t = shareTranslator(locale);
  return respond(shareDocument({ lang: locale, title: t("share.notFoundTitle"), description: t("share.notFoundText"), branding: NEUTRAL_BRANDING, t, body: messageBody(t("share.notFoundTitle"), t("share.notFoundText")) }), 404);
}

/**
 * A share page (GET, or the password form's POST): the resolve through `openSharePage`, then the
 * page of its state with that state's status. A right password answers 303 back to the page with
 * a grant cookie (HttpOnly, SameSite=Lax, Secure on https), so the form works without JavaScript.
 */
export async function sharePageResponse(req: Request, p: ShareParams, form?: { password: string }): Promise<Response> {
  const locale: ShareLocale = isShareLocale(p.locale) ? p.locale : "pt-BR";
  if (!isShareLocale(p.locale)) return notFoundPage(locale);
  const t = shareTranslator(locale);
  try {
    const db = await getDb();
    const cookie = grantCookieName(p.token);
    const grant = form ? undefined : readCookie(req, cookie);
    const page = await openSharePage(db, p.token, {
      host: req.headers.get("host"), serviceHosts, locale, visit: visitOf(req),
      password: form ? form.password : undefined,
      grant,
      // One open per visit of the page itself: the password POST (answered with a redirect) and the listings inside a shortlist are not counted again;
      // a HEAD (a link checker; Next answers it with GET) opens nothing.
      record: !form && !p.listingId && req.method !== "HEAD",
    });
    const base = pagePath(locale, p.token);
    const url = new URL(req.url);
    const origin = originOf(req);
    if (page.status === 404) return notFoundPage(locale);
    if (page.status === 200 && form) {
      const secure = origin.startsWith("https:") ? "; Secure" : "";
      const headers: Record<string, string> = { location: p.listingId ? `${base}/l/${encodeURIComponent(p.listingId)}` : base, "cache-control": "private, no-store" };
      if (page.grant) headers["set-cookie"] = `${cookie}=${page.grant}; Path=/; Max-Age=${GRANT_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
      return new Response(null, { status: 303, headers });
    }
    const languages = page.status === 200 ? page.answer.languages : page.languages;
    const tail = p.listingId ? `/l/${encodeURIComponent(p.listingId)}` : "";
    const langs: Languages = { current: locale, available: languages, hrefFor: (l) => `${pagePath(l, p.token)}${tail}` };
    const og = ogContent(page, locale, t);
    const version = ogVersion(og);
    const ogMeta = { title: og.title, description: og.description, url: `${origin}${base}`, siteName: og.brandName, image: `${origin}${base}/og?v=${version}` };
    // A messaging app fetches the page, then its og:image: render the card now, in the background, so
    // the image is answered from the cache. Only when the page shows what the image route will compute
    // (no grant or password: that route never has one).
    if (!grant && !form) void import("./og-image").then((m) => m.renderOgImage(ogCacheKey(p.token, locale, version), og)).catch(() => {});
    if (page.status !== 200) return statePage(page, { t, locale, base: base + tail, langs, ogMeta });

    const query = Object.fromEntries(url.searchParams.entries());
    // Spec 2 §2.8: `showFinancialSimulator: false` hides the simulator on the share domain (and here on the
    // service's own host); on the tenant's own site the site's template decides, and it shows one.
    const view: ShareView = { answer: page.answer, locale, t, base, simulator: page.hostKind === "site" || page.answer.showFinancialSimulator, query };
    let body: Html;
    let title = og.title;
    let preload: string | null = null;
    const e = page.answer.entity;
    if (p.listingId) {
      const inner = memberListingBody(view, p.listingId);
      if (!inner) return notFoundPage(locale);
      body = inner;
      const doc = memberDoc(e, p.listingId) ?? {};
      title = localized(doc, "title", locale) || title;
      preload = coverOf(doc);
    } else {
      body = shareBody(view);
      if (e.type === "listing" || e.type === "seller_report") preload = coverOf((e.listing ?? {}) as Record<string, unknown>, e.medias as unknown[]);
    }
    const agent = (e.agent as Agent | null | undefined) ?? null;
    const doc = shareDocument({
      lang: locale, title: `${title} · ${page.answer.branding.name}`, description: og.description, branding: page.answer.branding, t, body,
      bar: contactBar(view, agent, title), og: ogMeta, langs, preload,
    });
    return respond(doc, 200);
  } catch (err) {
    if (isConnectionError(err)) return unavailablePage(locale);
    logger().error({ err, token: p.token.slice(0, 6) }, "share page failed");
    return respond(shareDocument({ lang: locale, title: t("share.errorTitle"), description: "", branding: NEUTRAL_BRANDING, t, body: messageBody(t("share.errorTitle"), t("share.errorText")) }), 500);
  }
}

function statePage(
  page: Exclude<SharePage, { status: 200 } | { status: 404 }>,
  c: { t: ReturnType<typeof shareTranslator>; locale: ShareLocale; base: string; langs: Languages; ogMeta: { title: string; description: string; url: string; siteName: string; image: string } },
): Response {
  const { t } = c;
  const b = page.branding;
  const body =
    page.status === 410
      ? messageBody(t("share.expiredTitle"), t("share.expiredText", { name: b.name }))
      : passwordBody(t, { branding: b, action: c.base, status: page.status, retryAfterSeconds: page.retryAfterSeconds });
  const title = page.status === 410 ? t("share.expiredTitle") : t("share.passwordTitle");
  const doc = shareDocument({ lang: c.locale, title: `${title} · ${b.name}`, description: c.ogMeta.description, branding: b, t, body, og: c.ogMeta, langs: c.langs });
  return respond(doc, page.status, page.status === 429 && page.retryAfterSeconds ? { "retry-after": String(page.retryAfterSeconds) } : {});
}

/** The password form's body (`application/x-www-form-urlencoded` or multipart); anything else is an empty password. */
export async function readPasswordForm(req: Request): Promise<{ password: string }> {
  try {
    const form = await req.formData();
    const v = form.get("password");
    return { password: typeof v === "string" ? v.slice(0, 200) : "" };
  } catch {
    return { password: "" };
  }
}

