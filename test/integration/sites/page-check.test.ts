/**
 * What the proxy checks before a site page renders (lib/sites/render/page-check.ts): what exists
 * renders, what does not is a 404 rendered on the server, and a doubt renders the page. Scoped to
 * the site asked for: another tenant's listing, entry or page is missing here.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as entriesRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/[collectionId]/entries/route";
import * as collectionsRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/route";
import type { SiteKey } from "../../../lib/sites/render/host-routing";
import { checkSitePage } from "../../../lib/sites/render/page-check";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let a: TestTenant;
let b: TestTenant;
let keyA: SiteKey;
let keyB: SiteKey;

const configuration = {
  puck_data: { root: { props: {} }, content: [] },
  siteConfiguration: { brand: { logoUrl: null, name: null, primaryColor: null }, menu: [], footer: {} },
  otherConfigs: { pages: [{ id: "about", path: "/sobre", path_en: "/about", title: "Sobre", data: { root: { props: {} }, content: [] } }] },
};

async function blogWithPost(t: TestTenant, siteId: string, slug: string) {
  const c = await call(collectionsRoute.POST, "POST", "/x", {
    key: t.key,
    params: { siteId },
    body: { name: "Blog", slug: "blog", templatePageId: "blog-post", fields: [{ id: "headline", label: "Título", type: "text", required: true }] },
  });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  const e = await call(entriesRoute.POST, "POST", "/x", {
    key: t.key,
    params: { siteId, collectionId: c.body.id },
    body: { slug, status: "published", fields: { headline: "Olá" } },
  });
  expect(e.status, JSON.stringify(e.body)).toBe(201);
}

beforeAll(async () => {
  a = await makeTenant();
  b = await makeTenant();
  const siteA = await makeSite(a, { configuration });
  const siteB = await makeSite(b);
  keyA = { kind: "domain", host: siteA.domain };
  keyB = { kind: "domain", host: siteB.domain };
  await blogWithPost(a, siteA.id, "ola");
  await blogWithPost(b, siteB.id, "so-do-b");
});

describe("checkSitePage", () => {
  it("renders what exists: home, catalogue, contact, the lead endpoint, an extra page at its path, a collection, a published entry", async () => {
    for (const rest of ["/", "/imoveis", "/contato", "/lead", "/sobre", "/blog", "/blog/ola"])
      expect(await checkSitePage(keyA, "pt-BR", rest), rest).toEqual({ found: true });
  });
  it("sends what does not exist to the 404: a page, an entry, a development, a listing, a place", async () => {
    // `/about` is the extra page's `path_en`, not an address: its page is served at `path` only.
    for (const [rest, missing] of [
      ["/nada", "page"],
      ["/blog/nada", "page"],
      ["/nada/ola", "page"],
      ["/about", "page"],
      ["/contato/x", "page"],
      ["/lead/x", "page"],
      ["/imovel", "page"],
      ["/empreendimento", "page"],
      ["/empreendimento/00000000-0000-0000-0000-000000000000", "page"],
      ["/imovel/NOPE1", "listing"],
      ["/imoveis/xx", "page"],
    ]) {
      expect(await checkSitePage(keyA, "pt-BR", rest), rest).toEqual({ found: false, missing });
    }
  });
  it("sees only the site's own tenant: another tenant's entry is missing here", async () => {
    expect(await checkSitePage(keyA, "pt-BR", "/blog/so-do-b")).toEqual({ found: false, missing: "page" });
    expect(await checkSitePage(keyB, "pt-BR", "/blog/so-do-b")).toEqual({ found: true });
    expect(await checkSitePage(keyB, "pt-BR", "/sobre")).toEqual({ found: false, missing: "page" });
  });
  it("names an unknown site and a language the tenant has not enabled", async () => {
    expect(await checkSitePage({ kind: "domain", host: "nobody.example.com" }, "pt-BR", "/")).toEqual({ found: false, missing: "site" });
    expect(await checkSitePage(keyA, "es", "/")).toEqual({ found: false, missing: "locale" });
  });
  it("sends addresses deeper than any route to the 404, even under an existing entry; the catalogue checks its own", async () => {
    for (const rest of ["/a/b/c", "/blog/ola/mais", "/contato/a/b", "/empreendimento/x/y"])
      expect(await checkSitePage(keyA, "pt-BR", rest), rest).toEqual({ found: false, missing: "page" });
    // Its catalogue pages are validated as places (`/imoveis/xx` above), a listing's slug is free.
    expect(await checkSitePage(keyA, "pt-BR", "/imoveis/a/b/c/d/e")).toEqual({ found: false, missing: "page" });
  });
});
