/**
 * The listings of a site's sitemap files (`lib/sites/sitemap-listings.ts`): counted as the
 * catalogue counts them, read file by file through the public documents, and every published
 * listing in exactly one file, however many files the catalogue needs.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { getDb } from "../../../db/client";
import { sites, type SiteRow } from "../../../db/schema";
import { sitemapListingCount, sitemapListings } from "../../../lib/sites/sitemap-listings";
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

describe("sitemapIndexXml", () => {
  it("names each file, escaped", () => {
    const xml = sitemapIndexXml(["https://x.com/sitemap.xml?part=pages", "https://x.com/sitemap.xml?part=listings-1&x=1"]);
    expect(xml).toContain("<sitemapindex");
    expect(xml.match(/<sitemap>/g)).toHaveLength(2);
    expect(xml).toContain("<loc>https://x.com/sitemap.xml?part=listings-1&amp;x=1</loc>");
  });
});
