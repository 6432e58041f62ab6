/**
 * How a request reaches a rendered site (issue #15), as pure functions `proxy.ts` calls to rewrite
 * it to the internal route `/site-render/{siteKey}/{locale}/{path}`. The proxy then checks that the
 * site (and a listing or place) exists (page-check.ts, reading the database in the server's
 * process); the page resolves the site key through `lib/sites` (rows cached a few seconds per process).
 *
 * - A site's own host (`demo.localhost:3000`, `www.agency.com.br`): every path is the site's.
 * - The service's own hosts (localhost, loopback, `SERVICE_HOSTS`): `/s/{siteId}/...` previews a
 *   site (published or not, with noindex); every other path is the service's (home page, docs).
 * - `/en/...` and `/es/...` pick the locale; Portuguese has no prefix (`/pt-BR/x` redirects to `/x`).
 * - `/api/**` reaches the proxy only when its path holds a `%` (refused if it does not decode), so
 *   the API is the same on every host.
 */

export const SITE_RENDER_PREFIX = "/site-render";
/** Internal route of the pricing tool `/c/{token}` (issue #16), on every host: `/pricing-render/{locale}/{token}`. */
export const PRICING_RENDER_PREFIX = "/pricing-render";
/** Internal route of the share pages (`/p/{token}`), on every host: see `shareRequest`. */
export const SHARE_RENDER_PREFIX = "/share-render";
/** Share pages by their first path segment: `p` a shared entity (issue #16). */
export const SHARE_PAGES = ["p"] as const;
/** The languages of rendered pages: the one list (`lib/i18n/locales.ts`), under the names routing uses. */
export { LOCALES as SITE_LOCALES, DEFAULT_LOCALE, type Locale as SiteLocale } from "../../i18n/locales";
import { DEFAULT_LOCALE, LOCALES, type Locale as SiteLocale } from "../../i18n/locales";

/** The languages with a path prefix (`/en`, `/es`): every one but Portuguese. */
const PREFIXED = LOCALES.filter((l) => l !== DEFAULT_LOCALE);
const isPrefixed = (s: string | undefined): s is SiteLocale => (PREFIXED as readonly string[]).includes(s ?? "");
const PREFIX_PATTERN = PREFIXED.join("|");

/** Hosts that are always the service itself, whatever `SERVICE_HOSTS` adds. */
export const DEFAULT_SERVICE_HOSTS = ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A host as browsers send it: labels of letters, digits and dashes, optionally a port. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/;

/** `Demo.Localhost:3000.` -> `demo.localhost:3000`; anything that is not a plain host name -> "". */
export function normalizeHost(raw: string | null | undefined): string {
  const h = (raw ?? "")
    .trim()
    .toLowerCase()
    .replace(/\.(?=:\d+$|$)/, "");
  if (h.startsWith("[")) return /^\[[0-9a-f:.]+\](?::\d{1,5})?$/.test(h) ? h : "";
  return h.length <= 259 && HOST.test(h) ? h : "";
}

/** The host without its port: `demo.localhost:3000` -> `demo.localhost`, `[::1]:3000` -> `[::1]`. */
export function hostWithoutPort(host: string): string {
  return host.startsWith("[") ? host.replace(/(?<=\])(:\d+)?$/, "") : host.replace(/:\d+$/, "");
}

/** `SERVICE_HOSTS=crm.example.com,api.example.com` plus the defaults, as bare host names. */
export function serviceHostSet(env: string | undefined): Set<string> {
  const extra = (env ?? "")
    .split(",")
    .map((s) => hostWithoutPort(normalizeHost(s)))
    .filter(Boolean);
  return new Set([...DEFAULT_SERVICE_HOSTS, ...extra]);
}

export function isServiceHost(host: string, serviceHosts: ReadonlySet<string>): boolean {
  const h = normalizeHost(host);
  // No usable Host header: the service answers (a site always has a name).
  return !h || serviceHosts.has(hostWithoutPort(h));
}

/** Which site a rendered page is for: by host name, or by id on the preview path. */
export type SiteKey = { kind: "domain"; host: string } | { kind: "preview"; siteId: string };

/** Site keys travel as one path segment: `d~demo.localhost:3000` or `p~{uuid}`. */
export function encodeSiteKey(key: SiteKey): string {
  return key.kind === "domain" ? `d~${key.host}` : `p~${key.siteId.toLowerCase()}`;
}

export function parseSiteKey(segment: string): SiteKey | null {
  let s = segment;
  try {
    s = decodeURIComponent(segment);
  } catch {
    return null;
  }
  if (s.startsWith("d~")) {
    const host = normalizeHost(s.slice(2));
    return host ? { kind: "domain", host } : null;
  }
  if (s.startsWith("p~") && UUID.test(s.slice(2))) return { kind: "preview", siteId: s.slice(2).toLowerCase() };
  return null;
}

/** `/en/imoveis` -> `{locale: "en", rest: "/imoveis"}`; `/pt-BR/x` asks for a redirect to `/x`. */
export function splitLocale(path: string): { locale: SiteLocale; rest: string; redirectTo?: string } {
  const m = path.match(/^\/([^/]+)(\/.*)?$/);
  const first = m?.[1] ?? "";
  const rest = m?.[2] ?? "/";
  if (isPrefixed(first)) return { locale: first, rest };
  if (first.toLowerCase() === "pt-br") return { locale: DEFAULT_LOCALE, rest, redirectTo: rest };
  return { locale: DEFAULT_LOCALE, rest: path || "/" };
}

/** Files served per site without a locale, and the internal route of each. */
const SITE_FILES: Record<string, string> = { "/sitemap.xml": "/sitemap", "/robots.txt": "/robots" };

export type RouteDecision =
  | { kind: "pass" }
  /** `site`: a page of a site (not its sitemap or robots file), which the proxy checks before it renders. */
  | { kind: "rewrite"; pathname: string; locale: SiteLocale | null; sitePath?: string; site?: { key: SiteKey; locale: SiteLocale } }
  | { kind: "redirect"; pathname: string };

/**
 * The listing reference of a listing page's address (`/imovel/{code}[/{slug}]`), decoded (as it
 * was sent when it is not valid percent-encoding: no listing has such a code); null for any other page.
 */
export function listingRefOf(rest: string): string | null {
  const m = /^\/imovel\/([^/]+)(?:\/|$)/.exec(rest);
  return m ? decodeSegment(m[1]) : null;
}

/** `decodeURIComponent`, or the segment unchanged when it is not valid percent-encoding (never throws). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The internal path of a site page (or of a site file, with `locale` null). */
export function internalPath(key: SiteKey, locale: SiteLocale | null, rest: string): string {
  const tail = rest === "/" ? "" : rest;
  return `${SITE_RENDER_PREFIX}/${encodeURIComponent(encodeSiteKey(key))}${locale ? `/${locale}` : ""}${tail}`;
}

/**
 * A share page: `/{page}/{token}[/...]`, optionally under `/en` or `/es`, is the same on every host
 * (the service's own, `{slug}.{SHARE_DOMAIN}`, a tenant site's domain): rewritten to
 * `/share-render/{locale}/{page}/{token}[/...]`, whose handler checks the host against the link's
 * tenant. `/pt-BR/p/...` redirects to the unprefixed address. null: not a share page.
 */
const SHARE_PATH = new RegExp(`^(?:\\/(${PREFIX_PATTERN}|pt-br))?\\/([a-z])\\/([A-Za-z0-9_-]{1,64})(\\/[^]*)?$`, "i");

export function shareRequest(pathname: string): RouteDecision | null {
  const m = SHARE_PATH.exec(pathname);
  if (!m || !(SHARE_PAGES as readonly string[]).includes(m[2])) return null;
  const prefix = m[1]?.toLowerCase();
  const tail = `/${m[2]}/${m[3]}${m[4] ?? ""}`;
  if (prefix === "pt-br") return { kind: "redirect", pathname: tail };
  const locale: SiteLocale = isPrefixed(prefix) ? prefix : DEFAULT_LOCALE;
  return { kind: "rewrite", pathname: `${SHARE_RENDER_PREFIX}/${locale}${tail}`, locale: null };
}

/** What a request for `pathname` on `host` becomes. */
export function routeRequest(input: { host: string | null; pathname: string; serviceHosts: ReadonlySet<string> }): RouteDecision {
  const { pathname } = input;
  const host = normalizeHost(input.host);
  // The share pages' internal route is not an address either: an unknown page (404).
  if (pathname === SHARE_RENDER_PREFIX || pathname.startsWith(`${SHARE_RENDER_PREFIX}/`)) {
    return { kind: "rewrite", pathname: `${SHARE_RENDER_PREFIX}/-/p/-`, locale: null };
  }
  const share = shareRequest(pathname);
  if (share) return share;
  // The internal route is not an address: asked for directly, it is an unknown site (404).
  if (pathname === SITE_RENDER_PREFIX || pathname.startsWith(`${SITE_RENDER_PREFIX}/`)) {
    return { kind: "rewrite", pathname: `${SITE_RENDER_PREFIX}/-/${DEFAULT_LOCALE}`, locale: DEFAULT_LOCALE };
  }
  if (pathname === PRICING_RENDER_PREFIX || pathname.startsWith(`${PRICING_RENDER_PREFIX}/`)) {
    return { kind: "rewrite", pathname: `${PRICING_RENDER_PREFIX}/${DEFAULT_LOCALE}/-`, locale: DEFAULT_LOCALE };
  }
  const pricing = pricingToolPath(pathname);
  if (pricing) return pricing;
  if (isServiceHost(host, input.serviceHosts)) {
    const m = pathname.match(/^\/s\/([^/]+)(\/.*)?$/);
    if (!m) return { kind: "pass" };
    if (!UUID.test(m[1])) return { kind: "rewrite", pathname: `${SITE_RENDER_PREFIX}/-/${DEFAULT_LOCALE}`, locale: DEFAULT_LOCALE };
    const key: SiteKey = { kind: "preview", siteId: m[1].toLowerCase() };
    return toSite(key, m[2] ?? "/", `/s/${m[1]}`);
  }
  return toSite({ kind: "domain", host }, pathname || "/", "");
}

function toSite(key: SiteKey, path: string, base: string): RouteDecision {
  if (Object.hasOwn(SITE_FILES, path)) return { kind: "rewrite", pathname: internalPath(key, null, SITE_FILES[path]), locale: null };
  const { locale, rest, redirectTo } = splitLocale(path);
  if (redirectTo !== undefined) return { kind: "redirect", pathname: `${base}${redirectTo === "/" && base ? "" : redirectTo}` || "/" };
  return { kind: "rewrite", pathname: internalPath(key, locale, rest), locale, sitePath: rest, site: { key, locale } };
}

/**
 * `/c/{token}`, `/en/c/{token}`, `/es/c/{token}` on any host (the service's, the share domain's,
 * a tenant site's): the pricing tool. The route checks that the host belongs to the token's tenant.
 */
const PRICING_PATH = new RegExp(`^(?:\\/(${PREFIX_PATTERN}))?\\/c\\/([^/]+)\\/?$`);

export function pricingToolPath(pathname: string): RouteDecision | null {
  const m = pathname.match(PRICING_PATH);
  if (!m) return null;
  const locale: SiteLocale = (m[1] as SiteLocale | undefined) ?? DEFAULT_LOCALE;
  return { kind: "rewrite", pathname: `${PRICING_RENDER_PREFIX}/${locale}/${m[2]}`, locale };
}
