import { describe, expect, it } from "vitest";
import {
  decodeSegment,
  encodeSiteKey,
  hostWithoutPort,
  internalPath,
  isServiceHost,
  listingRefOf,
  normalizeHost,
  parseSiteKey,
  routeRequest,
  serviceHostSet,
  splitLocale,
} from "../../../lib/sites/render/host-routing";

const hosts = serviceHostSet("crm.example.com, API.example.com:8080");
const ID = "0b6d8a52-3f0e-4c8e-9b55-2a1d8c0e7f11";

describe("normalizeHost", () => {
  it("lowercases, keeps the port, drops a trailing dot", () => {
    expect(normalizeHost("Demo.Localhost:3000")).toBe("demo.localhost:3000");
    expect(normalizeHost("www.agency.com.br.")).toBe("www.agency.com.br");
    expect(normalizeHost("[::1]:3000")).toBe("[::1]:3000");
  });
  it("refuses what is not a host name", () => {
    for (const bad of ["", "a b", "evil.com/path", "x..y", "-x.com", "a@b.com", null, undefined]) expect(normalizeHost(bad)).toBe("");
  });
});

describe("hostWithoutPort", () => {
  it("strips the port, also of IPv6 literals", () => {
    expect(hostWithoutPort("demo.localhost:3000")).toBe("demo.localhost");
    expect(hostWithoutPort("[::1]:3000")).toBe("[::1]");
    expect(hostWithoutPort("agency.com")).toBe("agency.com");
  });
});

describe("isServiceHost", () => {
  it("knows loopback names and SERVICE_HOSTS, with any port", () => {
    for (const h of ["localhost:3000", "127.0.0.1:3330", "[::1]:3000", "crm.example.com", "api.example.com:443", ""])
      expect(isServiceHost(h, hosts)).toBe(true);
    for (const h of ["demo.localhost:3000", "www.agency.com.br", "crm.example.com.evil.net"]) expect(isServiceHost(h, hosts)).toBe(false);
  });
});

describe("site keys", () => {
  it("round-trip through one path segment", () => {
    for (const key of [{ kind: "domain", host: "demo.localhost:3000" } as const, { kind: "preview", siteId: ID } as const]) {
      expect(parseSiteKey(encodeURIComponent(encodeSiteKey(key)))).toEqual(key);
      expect(parseSiteKey(encodeSiteKey(key))).toEqual(key);
    }
  });
  it("refuse anything else", () => {
    for (const bad of ["-", "d~", "d~a b", "p~123", "x~demo.localhost", "%E0%A4%A"]) expect(parseSiteKey(bad)).toBeNull();
  });
});

describe("splitLocale", () => {
  it("reads /en and /es, Portuguese without a prefix", () => {
    expect(splitLocale("/en/imoveis")).toEqual({ locale: "en", rest: "/imoveis" });
    expect(splitLocale("/es")).toEqual({ locale: "es", rest: "/" });
    expect(splitLocale("/imoveis/sp")).toEqual({ locale: "pt-BR", rest: "/imoveis/sp" });
    expect(splitLocale("/")).toEqual({ locale: "pt-BR", rest: "/" });
    expect(splitLocale("/english")).toEqual({ locale: "pt-BR", rest: "/english" });
  });
  it("sends /pt-BR/... to the unprefixed path", () => {
    expect(splitLocale("/pt-BR/imoveis")).toMatchObject({ locale: "pt-BR", redirectTo: "/imoveis" });
    expect(splitLocale("/pt-br")).toMatchObject({ redirectTo: "/" });
  });
});

describe("routeRequest", () => {
  const route = (host: string | null, pathname: string) => routeRequest({ host, pathname, serviceHosts: hosts });
  it("leaves the service's own pages alone", () => {
    expect(route("localhost:3000", "/")).toEqual({ kind: "pass" });
    expect(route("crm.example.com", "/anything")).toEqual({ kind: "pass" });
    expect(route(null, "/")).toEqual({ kind: "pass" });
  });
  it("rewrites a site host's pages with their locale", () => {
    expect(route("demo.localhost:3000", "/")).toEqual({
      kind: "rewrite",
      pathname: "/site-render/d~demo.localhost%3A3000/pt-BR",
      locale: "pt-BR",
      sitePath: "/",
      site: { key: { kind: "domain", host: "demo.localhost:3000" }, locale: "pt-BR" },
    });
    expect(route("Demo.localhost:3000", "/en/imoveis/sp")).toEqual({
      kind: "rewrite",
      pathname: "/site-render/d~demo.localhost%3A3000/en/imoveis/sp",
      locale: "en",
      sitePath: "/imoveis/sp",
      site: { key: { kind: "domain", host: "demo.localhost:3000" }, locale: "en" },
    });
    expect(route("agency.com", "/es")).toMatchObject({ pathname: "/site-render/d~agency.com/es" });
  });
  it("serves sitemap.xml and robots.txt per site without a locale", () => {
    expect(route("agency.com", "/sitemap.xml")).toEqual({ kind: "rewrite", pathname: "/site-render/d~agency.com/sitemap", locale: null });
    expect(route("localhost", `/s/${ID}/robots.txt`)).toEqual({ kind: "rewrite", pathname: `/site-render/p~${ID}/robots`, locale: null });
  });
  it("previews a site by id on the service host", () => {
    expect(route("localhost:3000", `/s/${ID}`)).toEqual({
      kind: "rewrite",
      pathname: `/site-render/p~${ID}/pt-BR`,
      locale: "pt-BR",
      sitePath: "/",
      site: { key: { kind: "preview", siteId: ID }, locale: "pt-BR" },
    });
    expect(route("localhost:3000", `/s/${ID.toUpperCase()}/en/imovel/AP1`)).toEqual({
      kind: "rewrite",
      pathname: `/site-render/p~${ID}/en/imovel/AP1`,
      locale: "en",
      sitePath: "/imovel/AP1",
      site: { key: { kind: "preview", siteId: ID }, locale: "en" },
    });
    expect(route("localhost:3000", "/s/not-a-uuid")).toMatchObject({ kind: "rewrite", pathname: "/site-render/-/pt-BR" });
  });
  it("redirects /pt-BR/... to the unprefixed address", () => {
    expect(route("agency.com", "/pt-BR/imoveis")).toEqual({ kind: "redirect", pathname: "/imoveis" });
    expect(route("agency.com", "/pt-BR")).toEqual({ kind: "redirect", pathname: "/" });
    expect(route("localhost", `/s/${ID}/pt-BR`)).toEqual({ kind: "redirect", pathname: `/s/${ID}` });
  });
  it("never lets the internal route be addressed directly", () => {
    for (const host of ["localhost", "agency.com"])
      expect(route(host, "/site-render/d~other.com/pt-BR")).toMatchObject({ kind: "rewrite", pathname: "/site-render/-/pt-BR" });
  });
  it("sends the pricing tool /c/{token} (with /en or /es) to its route on every host, and hides that route", () => {
    const T = "NOLtPP7QcOguS7-sUSlbX_0rWhPDB2yP";
    for (const host of ["localhost:3000", "demo.localhost:3000", "www.agency.com.br"]) {
      expect(route(host, `/c/${T}`)).toEqual({ kind: "rewrite", pathname: `/pricing-render/pt-BR/${T}`, locale: "pt-BR" });
      expect(route(host, `/en/c/${T}/`)).toEqual({ kind: "rewrite", pathname: `/pricing-render/en/${T}`, locale: "en" });
      expect(route(host, `/es/c/${T}`)).toEqual({ kind: "rewrite", pathname: `/pricing-render/es/${T}`, locale: "es" });
      expect(route(host, `/pricing-render/pt-BR/${T}`)).toMatchObject({ kind: "rewrite", pathname: "/pricing-render/pt-BR/-" });
    }
    // Anything else under /c stays the site's (or the service's) own path.
    expect(route("localhost:3000", `/c/${T}/x`)).toEqual({ kind: "pass" });
    expect(route("agency.com", "/fr/c/x")).toMatchObject({ pathname: "/site-render/d~agency.com/pt-BR/fr/c/x" });
  });
  it("builds internal paths", () => {
    expect(internalPath({ kind: "domain", host: "a.com" }, "en", "/imoveis")).toBe("/site-render/d~a.com/en/imoveis");
  });
});

describe("share pages on every host (issue #16)", () => {
  const hosts = serviceHostSet(undefined);
  const T = "fiAZCAO1yBZoYNEEs9mJCZAfg4DypdnL";
  it("rewrites /p/{token} and its locale prefixes to the internal share route, whatever the host", () => {
    for (const host of ["localhost:3000", "demo.localhost:3000", "www.agency.com.br", null]) {
      expect(routeRequest({ host, pathname: `/p/${T}`, serviceHosts: hosts })).toEqual({
        kind: "rewrite",
        pathname: `/share-render/pt-BR/p/${T}`,
        locale: null,
      });
      expect(routeRequest({ host, pathname: `/en/p/${T}/l/abc`, serviceHosts: hosts })).toEqual({
        kind: "rewrite",
        pathname: `/share-render/en/p/${T}/l/abc`,
        locale: null,
      });
      expect(routeRequest({ host, pathname: `/es/p/${T}/og`, serviceHosts: hosts })).toEqual({
        kind: "rewrite",
        pathname: `/share-render/es/p/${T}/og`,
        locale: null,
      });
    }
    expect(routeRequest({ host: "localhost:3000", pathname: `/pt-BR/p/${T}`, serviceHosts: hosts })).toEqual({ kind: "redirect", pathname: `/p/${T}` });
  });
  it("leaves other one-letter paths alone and hides the internal route", () => {
    expect(routeRequest({ host: "localhost:3000", pathname: `/x/${T}`, serviceHosts: hosts })).toEqual({ kind: "pass" });
    expect(routeRequest({ host: "localhost:3000", pathname: `/share-render/pt-BR/p/${T}`, serviceHosts: hosts })).toEqual({
      kind: "rewrite",
      pathname: "/share-render/-/p/-",
      locale: null,
    });
  });
});

describe("listingRefOf and decodeSegment", () => {
  it("finds a listing page's reference, decoded, and nothing on other pages", () => {
    expect(listingRefOf("/imovel/AP1")).toBe("AP1");
    expect(listingRefOf("/imovel/AP%201/apartamento-no-centro")).toBe("AP 1");
    expect(listingRefOf("/imovel/")).toBeNull();
    expect(listingRefOf("/imoveis/sp")).toBeNull();
    expect(listingRefOf("/")).toBeNull();
    expect(listingRefOf("/blog/imovel/AP1")).toBeNull();
  });
  it("keeps a segment that is not valid percent-encoding as sent instead of throwing", () => {
    expect(decodeSegment("%E0%A4%A")).toBe("%E0%A4%A");
    expect(listingRefOf("/imovel/%E0%A4%A")).toBe("%E0%A4%A");
    expect(decodeSegment("s%C3%A3o-paulo")).toBe("são-paulo");
  });
});
