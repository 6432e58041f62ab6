import type { ReactNode } from "react";
import { renderDocument } from "@/app/_ui/static-markup";
import { getDb } from "@/db/client";
import { isConnectionError } from "@/lib/http/db-errors";
import { DEFAULT_LOCALE, isLocale, localePrefix, type Locale } from "@/lib/i18n/locales";
import { translator, type Translator } from "@/lib/i18n/translator";
import { logger } from "@/lib/log/logger";
import { grantCookieName, GRANT_SECONDS } from "@/lib/share/password-grant";
import { openSharePage, type ShareBranding, type ShareLinkState, type SharePage } from "@/lib/share/share-page";
import { visitOf } from "@/lib/http/share-route";
import { serviceHostSet } from "@/lib/sites/render/host-routing";
import { Message, NEUTRAL_BRANDING, PasswordForm, ShareDocument, type Languages, type OpenGraph } from "./document";
import { ContactBar, listingTitle } from "./listing-view";
import { ogCacheKey, ogContent, ogVersion } from "./og";
import { MemberListing, memberDoc, ShareBody } from "./share-body";
import { agentOf, type ShareView } from "./share-view";
import { unavailablePage } from "@/app/_ui/unavailable-page";
import { ChatLauncher } from "@/app/_ui/chat-launcher";
import { shareChatPlace } from "@/lib/messaging/web-chat/place";

const serviceHosts = serviceHostSet(process.env.SERVICE_HOSTS);

export type ShareParams = { locale: string; token: string; listingId?: string };

/** `/en/p/{token}` on the host the recipient used (the locale prefix is absent for Portuguese). */
export const pagePath = (locale: Locale, token: string) => `${localePrefix(locale)}/p/${token}`;

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
  "content-security-policy":
    "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'",
};

type Page = {
  lang: Locale;
  title: string;
  description: string;
  branding: ShareBranding;
  t: Translator;
  og?: OpenGraph;
  langs?: Languages;
  bar?: ReactNode;
  body: ReactNode;
};

/** A share page rendered from its components (no client runtime), with its status. */
async function respond(p: Page, status: number, extra: Record<string, string> = {}): Promise<Response> {
  const { body, ...doc } = p;
  const html = await renderDocument(<ShareDocument {...doc}>{body}</ShareDocument>);
  return new Response(html, { status, headers: { ...HEADERS, ...withMap(html, extra) } });
}

/** What LocationMap writes (an attribute of ours: listing text in the page is escaped and cannot forge it). */
const MAP_MARK = '<figure class="map" data-map=""';

/**
 * A page with a listing's map also runs `/listing-map.js`, which loads Leaflet's script and
 * stylesheet from our origin; the tiles are images (`img-src` has them already).
 */
function withMap(html: string, extra: Record<string, string>): Record<string, string> {
  if (!html.includes(MAP_MARK)) return extra;
  let csp = (extra["content-security-policy"] ?? HEADERS["content-security-policy"]).replace("style-src 'unsafe-inline'", "style-src 'self' 'unsafe-inline'");
  if (!csp.includes("script-src")) csp += "; script-src 'self'";
  return { ...extra, "content-security-policy": csp };
}

const message = (lang: Locale, t: Translator, title: string, text: string, status: number) =>
  respond({ lang, title, description: text, branding: NEUTRAL_BRANDING, t, body: <Message title={title} text={text} /> }, status);

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

function notFoundPage(locale: Locale): Promise<Response> {
  const t = translator(locale);
  return message(locale, t, t("share.notFoundTitle"), t("share.notFoundText"), 404);
}

/**
 * A share page (GET, or the password form's POST): the resolve through `openSharePage`, then the
 * page of its state with that state's status. A right password answers 303 back to the page with
 * a grant cookie (HttpOnly, SameSite=Lax, Secure on https), so the form works without JavaScript.
 */
export async function sharePageResponse(req: Request, p: ShareParams, form?: { password: string }): Promise<Response> {
  const locale: Locale = isLocale(p.locale) ? p.locale : DEFAULT_LOCALE;
  if (!isLocale(p.locale)) return notFoundPage(locale);
  const t = translator(locale);
  try {
    const db = await getDb();
    const cookie = grantCookieName(p.token);
    const grant = form ? undefined : readCookie(req, cookie);
    const page = await openSharePage(db, p.token, {
      host: req.headers.get("host"),
      serviceHosts,
      locale,
      visit: visitOf(req),
      password: form ? form.password : undefined,
      grant,
      // One open per visit of the page itself: the password POST (answered with a redirect) and the listings inside a shortlist are not counted again;
      // a HEAD (a link checker; Next answers it with GET) opens nothing.
      record: !form && !p.listingId && req.method !== "HEAD",
    });
    const base = pagePath(locale, p.token);
    const url = new URL(req.url);
    const origin = originOf(req);
    if (page.state === "not_found") return await notFoundPage(locale);
    if (page.state === "open" && form) {
      const secure = origin.startsWith("https:") ? "; Secure" : "";
      const headers: Record<string, string> = {
        location: p.listingId ? `${base}/l/${encodeURIComponent(p.listingId)}` : base,
        "cache-control": "private, no-store",
      };
      if (page.grant) headers["set-cookie"] = `${cookie}=${page.grant}; Path=/; Max-Age=${GRANT_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
      return new Response(null, { status: 303, headers });
    }
    const languages = page.state === "open" ? page.answer.languages : page.languages;
    const tail = p.listingId ? `/l/${encodeURIComponent(p.listingId)}` : "";
    const langs: Languages = { current: locale, available: languages, hrefFor: (l) => `${pagePath(l, p.token)}${tail}` };
    const og = ogContent(page, locale, t);
    const version = ogVersion(og);
    const ogMeta = { title: og.title, description: og.description, url: `${origin}${base}`, siteName: og.brandName, image: `${origin}${base}/og?v=${version}` };
    // A messaging app fetches the page, then its og:image: render the card now, in the background, so
    // the image is answered from the cache. Only when the page shows what the image route will compute
    // (no grant or password: that route never has one).
    if (!grant && !form) void import("./og-image").then((m) => m.renderOgImage(ogCacheKey(p.token, locale, version), og)).catch(() => {});
    if (page.state !== "open") return await statePage(page, { t, locale, base: base + tail, langs, ogMeta });

    const query = Object.fromEntries(url.searchParams.entries());
    // Spec 2 §2.8: `showFinancialSimulator: false` hides the simulator on the share domain (and here on the
    // service's own host); on the tenant's own site the site's template decides, and it shows one.
    const view: ShareView = { answer: page.answer, locale, t, base, simulator: page.hostKind === "site" || page.answer.showFinancialSimulator, query };
    const e = page.answer.entity;
    let title = og.title;
    let body: ReactNode = <ShareBody view={view} />;
    if (p.listingId) {
      const doc = memberDoc(e, p.listingId);
      if (!doc) return await notFoundPage(locale);
      title = listingTitle(view, doc) || title;
      body = <MemberListing view={view} listingId={p.listingId} />;
    }
    // The tenant's share pages may carry its web chat: a button and a script of our own origin.
    const chat = await shareChatPlace(db, p.token).catch(() => null);
    const bar = (
      <>
        <ContactBar t={t} agent={agentOf(e)} title={title} />
        {chat && (
          <ChatLauncher
            api={`/api/sites/share/${p.token}/chat`}
            locale={locale}
            agencyName={page.answer.branding.name}
            greeting={null}
            offlineMessage={null}
            online={chat.online}
            listingId={p.listingId ?? chat.linkListingId}
            raised
          />
        )}
      </>
    );
    return await respond(
      {
        lang: locale,
        title: `${title} · ${page.answer.branding.name}`,
        description: og.description,
        branding: page.answer.branding,
        t,
        body,
        bar,
        og: ogMeta,
        langs,
      },
      200,
      chat ? { "content-security-policy": `${HEADERS["content-security-policy"]}; script-src 'self'; connect-src 'self'` } : {},
    );
  } catch (err) {
    if (isConnectionError(err)) return unavailablePage(locale);
    logger().error({ err, token: p.token.slice(0, 6) }, "share page failed");
    return message(locale, t, t("share.errorTitle"), t("share.errorText"), 500);
  }
}

/** The HTTP status of each state of a closed or protected link. */
export const STATE_STATUS = { password_required: 401, password_wrong: 403, throttled: 429, expired: 410 } as const satisfies Record<ShareLinkState, number>;

function statePage(
  page: Extract<SharePage, { state: ShareLinkState }>,
  c: { t: Translator; locale: Locale; base: string; langs: Languages; ogMeta: OpenGraph },
): Promise<Response> {
  const { t } = c;
  const b = page.branding;
  const body =
    page.state === "expired" ? (
      <Message title={t("share.expiredTitle")} text={t("share.expiredText", { name: b.name })} />
    ) : (
      <PasswordForm t={t} branding={b} action={c.base} state={page.state} retryAfterSeconds={page.retryAfterSeconds} />
    );
  const title = page.state === "expired" ? t("share.expiredTitle") : t("share.passwordTitle");
  const extra: Record<string, string> = page.state === "throttled" && page.retryAfterSeconds ? { "retry-after": String(page.retryAfterSeconds) } : {};
  return respond(
    { lang: c.locale, title: `${title} · ${b.name}`, description: c.ogMeta.description, branding: b, t, body, og: c.ogMeta, langs: c.langs },
    STATE_STATUS[page.state],
    extra,
  );
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
