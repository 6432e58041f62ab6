import { NextResponse, type NextRequest } from "next/server";
import { routeRequest, serviceHostSet } from "@/lib/sites/render/host-routing";

/**
 * Host -> site routing for the rendered sites (issue #15): pure rewrites, no database (see
 * `lib/sites/render/host-routing.ts`). The service's own hosts pass through untouched.
 */
const serviceHosts = serviceHostSet(process.env.SERVICE_HOSTS);

export function proxy(req: NextRequest) {
  const decision = routeRequest({ host: req.headers.get("host"), pathname: req.nextUrl.pathname, serviceHosts });
  if (decision.kind === "pass") {
    // The service's own pages: the site headers are ours to set, never a client's.
    if (!req.headers.has("x-next-intl-locale") && !req.headers.has("x-site-path")) return NextResponse.next();
    const clean = new Headers(req.headers);
    clean.delete("x-next-intl-locale");
    clean.delete("x-site-path");
    return NextResponse.next({ request: { headers: clean } });
  }
  const url = req.nextUrl.clone();
  url.pathname = decision.pathname;
  if (decision.kind === "redirect") return NextResponse.redirect(url, 308);
  const headers = new Headers(req.headers);
  // next-intl reads the request's locale from this header; the root layout sets <html lang> from it.
  if (decision.locale) headers.set("x-next-intl-locale", decision.locale);
  else headers.delete("x-next-intl-locale");
  // The page's address in the site without its locale prefix: the language switcher links to it.
  if (decision.sitePath) headers.set("x-site-path", decision.sitePath + req.nextUrl.search);
  else headers.delete("x-site-path");
  return NextResponse.rewrite(url, { request: { headers } });
}

export const config = {
  // Never the API (same on every host, no added latency), Next's assets, or static files; the
  // two per-site files are named explicitly (also under a preview's `/s/{siteId}`).
  matcher: ["/((?!api(?:/|$)|site/api(?:/|$)|_next/|_vercel|.*\\..*).*)", "/sitemap.xml", "/robots.txt", "/s/:id/sitemap.xml", "/s/:id/robots.txt"],
};
