/**
 * Issue 32: a CMS collection is served at `/{slug}` on the site, and slugs such as `imoveis` or
 * `p` were accepted though the site's own routes answer there. They are refused with a 400 that
 * names the slug and why, on create and on rename, and nothing is stored. `blog` stays free: the
 * site's blog is itself a collection.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as collectionRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/[collectionId]/route";
import * as collectionsRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/route";
import { getDb } from "../../../db/client";
import { cmsCollections } from "../../../db/schema";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

const ROUTES = [
  "imoveis",
  "imovel",
  "empreendimento",
  "contato",
  "comparar",
  "lead",
  "p",
  "c",
  "s",
  "api",
  "site",
  "en",
  "es",
  "pt-br",
  "site-render",
  "share-render",
  "pricing-render",
];

let t: TestTenant;
let site: { id: string };
const collections = async () => (await (await getDb()).select().from(cmsCollections).where(eq(cmsCollections.siteId, site.id))).map((c) => c.slug).sort();

beforeAll(async () => {
  t = await makeTenant();
  site = await makeSite(t);
});

describe("collection slugs that are the site's own routes", () => {
  it.each(ROUTES)("'%s' is refused on create, naming the slug and why", async (slug) => {
    const res = await call(collectionsRoute.POST, "POST", "/x", { key: t.key, params: { siteId: site.id }, body: { name: "X", slug } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(`'${slug}' is reserved`);
    expect(res.body.error.message).toContain("slug");
    expect(await collections()).not.toContain(slug);
  });

  it("sitemap.xml and robots.txt are refused too", async () => {
    for (const slug of ["sitemap.xml", "robots.txt"]) {
      const res = await call(collectionsRoute.POST, "POST", "/x", { key: t.key, params: { siteId: site.id }, body: { name: "X", slug } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("slug");
    }
  });

  it("a rename to one is refused and changes nothing; blog and other slugs are free", async () => {
    const blog = await call(collectionsRoute.POST, "POST", "/x", { key: t.key, params: { siteId: site.id }, body: { name: "Blog", slug: "blog" } });
    expect(blog.status).toBe(201);
    const res = await call(collectionRoute.PATCH, "PATCH", "/x", {
      key: t.key,
      params: { siteId: site.id, collectionId: blog.body.id },
      body: { slug: "imoveis" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("'imoveis' is reserved");
    expect(await collections()).toEqual(["blog"]);
    for (const slug of ["imoveis-de-luxo", "guias", "contatos"]) {
      expect((await call(collectionsRoute.POST, "POST", "/x", { key: t.key, params: { siteId: site.id }, body: { name: slug, slug } })).status).toBe(201);
    }
  });
});
