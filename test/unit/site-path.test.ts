/**
 * Issue 32, D6: the one site-relative path check. Every input a browser could read as another
 * origin is refused; ordinary paths of a site pass.
 */
import { describe, expect, it } from "vitest";
import { isSitePath, sitePathOr } from "../../lib/util/site-path";
import { UrlOrPathSchema } from "../../lib/schemas/url";

const HOSTILE = [
  "/\\evil.example",
  "/\\\\evil",
  "\\/evil.example",
  "//evil.example",
  "///evil.example",
  "/%5Cevil.example",
  "/%5cevil.example",
  "/%2F/evil.example",
  "/%2fevil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "/ /evil.example",
  "/\u00a0/evil.example",
  "/\u0000/evil.example",
  "/\u2028/evil.example",
  "/imoveis\\..\\..\\evil",
  "/..//evil.example",
  "/a/..//evil.example",
  "/./%2e%2e//evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "/javascript:alert(1)\n",
  "data:text/html,<script>alert(1)</script>",
  "https://evil.example/",
  "evil.example",
  "",
  "#top",
];

const OK = [
  "/",
  "/imoveis",
  "/en/imovel/AP0042/apartamento-3-quartos",
  "/imoveis?bedrooms=2&sort=price:asc#lista",
  "/blog/post%20um",
  "/a/b/../c",
  "/s/%C3%A1gua",
];

describe("isSitePath", () => {
  it.each(HOSTILE)("refuses %j", (v) => expect(isSitePath(v)).toBe(false));
  it.each(OK)("accepts %j", (v) => expect(isSitePath(v)).toBe(true));
  it("falls back for anything else, trimming what it keeps", () => {
    expect(sitePathOr("/\\evil.example", "/")).toBe("/");
    expect(sitePathOr(undefined, "/")).toBe("/");
    expect(sitePathOr("  /imoveis ", "/")).toBe("/imoveis");
  });
  it("is the rule of the stored URL-or-path fields", () => {
    for (const v of ["/\\evil.example", "/%5Cevil", "//evil", "/\t/evil"]) expect(UrlOrPathSchema.safeParse(v).success).toBe(false);
    expect(UrlOrPathSchema.safeParse("/demo/photo-01.svg").success).toBe(true);
  });
});
