/**
 * The listings of a site's sitemap files (`lib/sites/sitemap-contents.ts`): counted as the
 * catalogue counts them, read file by file through the public documents, and every published
 * listing in exactly one file, however many files the catalogue needs.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { cmsCollections, cmsEntries, sites, type SiteRow } from "../../../db/schema";
import { sitemapListingCount, sitemapListings, sitemapPageEntries, sitemapPlan } from "../../../lib/sites/sitemap-contents";
import { sitemapIndexXml } from "../../../lib/sites/render/sitemap";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let a: TestTenant;
let site: SiteRow;
const published: string[] = [];
const hidden: string[] = [];

async function listing(t: TestTenant, title: string, o: { visibility?: string; stage?: string } = {}) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: { type: "apartment", bedrooms: 2 },
      location: { city: "Santos", state: "SP" },
      listings: [{ title, type: "sale", price: "500000", visibility: o.visibility ?? "public", stage: o.stage ?? "active" }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.listings[0].id as string;
}

beforeAll(async () => {
  a = await makeTenant();
  for (let i = 0; i < 7; i++) published.push(await listing(a, `Apartamento ${i} em Santos`));
  hidden.push(await listing(a, "Privado", { visibility: "private" }), await listing(a, "Rascunho", { stage: "draft" }));
  hidden.push(await listing(await makeTenant(), "De outra agência"));
  const made = await makeSite(a);
  [site] = await (await getDb()).select().from(sites).where(eq(sites.id, made.id));
});

describe("sitemap listings", () => {
  it("counts the published listings of the catalogue only", async () => {
    expect(await sitemapListingCount(await getDb(), site)).toBe(7);
  });

  it("splits them into files with each listing in exactly one, as public documents", async () => {
    const db = await getDb();
    const files = [await sitemapListings(db, site, 0, 3, 3), await sitemapListings(db, site, 3, 3, 3), await sitemapListings(db, site, 6, 3, 3)];
    expect(files.map((f) => f.length)).toEqual([3, 3, 1]);
    const ids = files.flat().map((d) => String(d.id));
    expect([...ids].sort()).toEqual([...published].sort());
    for (const h of hidden) expect(ids).not.toContain(h);
    // A file read in smaller batches is the same file.
    expect((await sitemapListings(db, site, 0, 3, 1)).map((d) => d.id)).toEqual(files[0].map((d) => d.id));
    for (const d of files.flat()) expect(d).toMatchObject({ listingCode: expect.any(String), title: expect.stringContaining("Santos") });
  });

  it("refuses an offset that is not a multiple of the batch", async () => {
    await expect(sitemapListings(await getDb(), site, 2, 3, 3)).rejects.toThrow(/multiple/);
  });
});

describe("sitemap pages", () => {
  it("list the home, the catalogue, location pages and every published CMS entry, past the first hundred", async () => {
    const db = await getDb();
    const [blog] = await db.insert(cmsCollections).values({ tenantId: a.tenantId, siteId: site.id, name: "Blog", slug: "blog" }).returning();
    const at = Date.now();
    await db.insert(cmsEntries).values(
      Array.from({ length: 130 }, (_, i) => ({
        tenantId: a.tenantId,
        siteId: site.id,
        collectionId: blog.id,
        slug: `post-${i}`,
        status: i === 7 ? ("draft" as const) : ("published" as const),
        publishedAt: i === 7 ? null : new Date(at - i * 60_000),
      })),
    );
    const paths = (await sitemapPageEntries(db, site)).map((e) => e.path);
    expect(paths.slice(0, 2)).toEqual(["/", "/imoveis"]);
    expect(paths).toContain("/imoveis/sp/santos");
    const posts = paths.filter((p) => p.startsWith("/blog/"));
    expect(posts).toHaveLength(129);
    expect(new Set(posts).size).toBe(129);
    expect(posts).not.toContain("/blog/post-7");
    expect(posts).toContain("/blog/post-129");
  });
});

describe("sitemapPlan", () => {
  it("keeps one file while it holds at most the protocol's 50,000 URLs (an entry per language)", () => {
    expect(sitemapPlan(500, 10_000, 3)).toEqual({ single: true });
    expect(sitemapPlan(6_000, 10_000, 3)).toEqual({ single: true }); // 48,000 URLs
    expect(sitemapPlan(7_000, 10_000, 1)).toEqual({ single: true });
  });
  it("otherwise names page files and listing files, each of at most `perFile` entries", () => {
    expect(sitemapPlan(7_000, 10_000, 3)).toEqual({ single: false, parts: ["pages-1", "listings-1"] }); // 51,000 URLs
    expect(sitemapPlan(500, 10_001, 1)).toEqual({ single: false, parts: ["pages-1", "listings-1", "listings-2"] });
    expect(sitemapPlan(25_000, 0, 3)).toEqual({ single: false, parts: ["pages-1", "pages-2", "pages-3"] });
    expect(sitemapPlan(3, 7, 3, 3)).toEqual({ single: false, parts: ["pages-1", "listings-1", "listings-2", "listings-3"] });
  });
});

describe("sitemapIndexXml", () => {
  it("names each file, escaped", () => {
    const xml = sitemapIndexXml(["https://x.com/sitemap.xml?part=pages", "https://x.com/sitemap.xml?part=listings-1&x=1"]);
    expect(xml).toContain("<sitemapindex");
    expect(xml.match(/<sitemap>/g)).toHaveLength(2);
    expect(xml).toContain("<loc>https://x.com/sitemap.xml?part=listings-1&amp;x=1</loc>");
  });
});
