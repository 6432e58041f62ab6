import { NextResponse, type NextRequest } from "next/server";
import { DEFAULT_LOCALE, encodeSiteKey, routeRequest, serviceHostSet } from "@/lib/sites/render/host-routing";
import { checkSitePage } from "@/lib/sites/render/page-check";
import { LOOKUP_HEADER } from "@/lib/sites/render/lookup-handoff";
import { PROXY_MARK_HEADER, proxyMark } from "@/lib/sites/render/proxy-mark";
import { logger } from "@/lib/log/logger";
import { databaseReachable, noteDatabaseFailure } from "@/lib/health/database-liveness";
import { isConnectionError } from "@/lib/http/db-errors";
import { localeOfPath, unavailablePage } from "@/app/_ui/unavailable-page";

/**
 * Host -> site routing for the rendered sites (issue #15): rewrites decided by pure helpers
 * (`lib/sites/render/host-routing.ts`), then, for a site page, a check that its site (and its
 * listing, on a listing page) exists (`lib/sites/render/page-check.ts`): what does not is sent to
 * an address no route matches, whose 404 page Next.js renders on the server. The service's own
 * hosts pass through untouched.
 */
const serviceHosts = serviceHostSet(process.env.SERVICE_HOSTS);

/** Request headers only the proxy sets; a client's copies are dropped on every request. */
const OWN_HEADERS = ["x-next-intl-locale", "x-site-path", "x-site-missing", "x-site-key", LOOKUP_HEADER, PROXY_MARK_HEADER];

/** Matches no route: Next.js renders the root not-found page (app/not-found.tsx) there, on the server. */
const UNMATCHED = "/_site-missing";

/**
 * True when the path is not valid percent-encoding (`%E0%A4%A`, a lone `%`): Next.js fails with a
 * bare 500 when it decodes such a path's parameters, before any route of ours runs.
 */
function undecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

export async function proxy(req: NextRequest) {
  // API paths come here only when they hold a '%' (see the matcher): refused or passed untouched.
  if (/^\/(?:site\/)?api(?:\/|$)/.test(req.nextUrl.pathname)) {
    if (!undecodable(req.nextUrl.pathname)) return NextResponse.next();
    return NextResponse.json(
      {
        error: {
          code: "invalid_request",
          message: "The path is not valid percent-encoding: a '%' must start a UTF-8 escape such as %C3%A3; send '%' itself as %25.",
        },
      },
      { status: 400, headers: { "cache-control": "no-store" } },
    );
  }
  const decision = routeRequest({ host: req.headers.get("host"), pathname: req.nextUrl.pathname, serviceHosts });
  const broken = undecodable(req.nextUrl.pathname);
  if (decision.kind === "pass" && !broken) {
    // The service's own pages: the site headers are ours to set, never a client's.
    if (!OWN_HEADERS.some((h) => req.headers.has(h))) return NextResponse.next();
    const clean = new Headers(req.headers);
    OWN_HEADERS.forEach((h) => {
      clean.delete(h);
    });
    return NextResponse.next({ request: { headers: clean } });
  }
  const url = req.nextUrl.clone();
  if (decision.kind === "redirect" && !broken) {
    url.pathname = decision.pathname;
    return NextResponse.redirect(url, 308);
  }
  const headers = new Headers(req.headers);
  OWN_HEADERS.forEach((h) => {
    headers.delete(h);
  });
  headers.set(PROXY_MARK_HEADER, proxyMark());
  const to = (pathname: string) => {
    url.pathname = pathname;
    return NextResponse.rewrite(url, { request: { headers } });
  };
  const rewrite = decision.kind === "rewrite" ? decision : null;
  // next-intl reads the request's locale from this header; the root layout sets <html lang> from it.
  if (rewrite?.locale) headers.set("x-next-intl-locale", rewrite.locale);
  // The page's address in the site without its locale prefix: the language switcher links to it.
  if (rewrite?.sitePath) headers.set("x-site-path", rewrite.sitePath + req.nextUrl.search);
  // Which site this is, for a 404 that Next.js renders outside the site's layout (app/not-found.tsx frames it).
  if (rewrite?.site) headers.set("x-site-key", encodeSiteKey(rewrite.site.key));
  // Such a path names nothing (on a site, the service, a share link): the 404 page, at an address
  // Next.js does not decode.
  if (broken) {
    if (rewrite?.site) headers.set("x-site-missing", "page");
    return to(UNMATCHED);
  }
  // Every page here reads the database (a site, a share link, the pricing tool): while it is
  // unreachable, a "back soon" page with 503 instead of a 500 from deep inside a render.
  if (!(await databaseReachable())) return unavailablePage(rewrite?.locale ?? localeOfPath(req.nextUrl.pathname));
  if (rewrite?.site) {
    let down = false;
    const check = await checkSitePage(rewrite.site.key, rewrite.site.locale, rewrite.sitePath ?? "/").catch((err) => {
      if (isConnectionError(err)) {
        down = true;
        noteDatabaseFailure();
        return null;
      }
      // The page itself then answers (and reports) what the check could not learn.
      logger().warn({ err, path: req.nextUrl.pathname }, "site page check failed; rendering the page");
      return null;
    });
    if (down) return unavailablePage(rewrite.site.locale);
    if (check && !check.found) {
      headers.set("x-site-missing", check.missing);
      // A language the tenant has not enabled: the 404 speaks the site's default language.
      if (check.missing === "locale") headers.set("x-next-intl-locale", DEFAULT_LOCALE);
      return to(UNMATCHED);
    }
    if (check?.lookup) headers.set(LOOKUP_HEADER, check.lookup);
  }
  return to(rewrite!.pathname);
}

export const config = {
  // Never the API (same on every host, no added latency) unless its path holds a '%' (which may
  // not decode), Next's assets, or static files: a path ending in a file type's extension, except
  // a listing's (`/imovel/lote-12.pdf`: a listing code may hold a dot; also under `/en`, `/s/{id}`)
  // and the internal routes' (which the proxy turns away). Any other dot is a page's. The two
  // per-site files are named explicitly (also under a preview's `/s/{siteId}`). Next.js needs
  // this list as a literal.
  matcher: [
    "/((?!api(?:/|$)|site/api(?:/|$)|_next/|_vercel|(?!(?:[^/]+/)?(?:[^/]+/)?(?:[^/]+/)?imovel/|(?:site|share|pricing)-render(?:/|$)).*\\.(?:svg|png|jpe?g|gif|webp|avif|ico|js|mjs|css|map|txt|xml|json|webmanifest|woff2?|ttf|otf|pdf|mp4|webm)$).*)",
    "/((?:site/)?api/.*%.*)",
    "/sitemap.xml",
    "/robots.txt",
    "/s/:id/sitemap.xml",
    "/s/:id/robots.txt",
  ],
};
