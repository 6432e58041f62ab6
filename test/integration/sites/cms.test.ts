/**
 * CMS of a site: the tenant side (collections and entries, field checks, slugs, publishedAt) and
 * the public side (collections, published entries only, paging, the spec's 404 texts), scoped
 * to the tenant and the site.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as pubEntriesRoute from "../../../app/api/sites/[siteId]/cms/[collection]/entries/route";
import * as pubEntryRoute from "../../../app/api/sites/[siteId]/cms/[collection]/entries/[entrySlug]/route";
import * as pubCollectionRoute from "../../../app/api/sites/[siteId]/cms/collections/[slug]/route";
import * as pubCollectionsRoute from "../../../app/api/sites/[siteId]/cms/collections/route";
import * as entriesRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/[collectionId]/entries/route";
import * as entryRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/[collectionId]/entries/[entryId]/route";
import * as collectionRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/[collectionId]/route";
import * as collectionsRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/route";
import { getDb } from "../../../db/client";
import { cmsEntries } from "../../../db/schema";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeMember, makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let ip = 0;
const headers = () => ({ [CLIENT_ADDRESS_HEADER]: `10.5.${Math.floor(++ip / 250)}.${ip % 250}` });

let a: TestTenant;
let b: TestTenant;
let site: { id: string };
let siteB: { id: string };
let blog: { id: string };

const FIELDS = [
  { id: "headline", label: "Título", type: "text", required: true },
  { id: "body", label: "Texto", type: "richText", required: false },
  { id: "readingMinutes", label: "Minutos", type: "number", required: false },
  { id: "cover", label: "Capa", type: "image", required: false },
];

const entry = (t: TestTenant, body: unknown, s = site, c = blog) =>
  call(entriesRoute.POST, "POST", "/x", { key: t.key, params: { siteId: s.id, collectionId: c.id }, body });

beforeAll(async () => {
  a = await makeTenant();
  b = await makeTenant();
  site = await makeSite(a);
  siteB = await makeSite(b);
  const res = await call(collectionsRoute.POST, "POST", "/x", {
    key: a.key,
    params: { siteId: site.id },
    body: { name: "Blog", slug: "blog", templatePageId: "blog-post", fields: FIELDS },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  blog = res.body;
});

describe("tenant side", () => {
  it("creates, lists, updates and deletes collections; slugs are unique per site", async () => {
    expect(blog).toMatchObject({ name: "Blog", slug: "blog", templatePageId: "blog-post", fields: FIELDS });
    const dup = await call(collectionsRoute.POST, "POST", "/x", { key: a.key, params: { siteId: site.id }, body: { name: "Outro", slug: "blog" } });
    expect(dup.status).toBe(409);
    const other = await call(collectionsRoute.POST, "POST", "/x", { key: a.key, params: { siteId: site.id }, body: { name: "Guia", slug: "guia" } });
    const renamed = await call(collectionRoute.PATCH, "PATCH", "/x", {
      key: a.key,
      params: { siteId: site.id, collectionId: other.body.id },
      body: { name: "Guias", slug: "guias" },
    });
    expect(renamed.body).toMatchObject({ name: "Guias", slug: "guias" });
    expect((await call(collectionsRoute.GET, "GET", "/x", { key: a.key, params: { siteId: site.id } })).body.items.map((c: any) => c.slug)).toEqual([
      "blog",
      "guias",
    ]);
    expect((await call(collectionRoute.DELETE, "DELETE", "/x", { key: a.key, params: { siteId: site.id, collectionId: other.body.id } })).body).toEqual({
      id: other.body.id,
      deleted: true,
    });
    for (const [body, msg] of [
      [{ name: "X", slug: "Not A Slug" }, /slug/],
      [
        {
          name: "X",
          slug: "x",
          fields: [
            { id: "a", label: "A", type: "text" },
            { id: "a", label: "B", type: "text" },
          ],
        },
        /unique/,
      ],
      [{ name: "X", slug: "x", fields: [{ id: "a", label: "A", type: "video" }] }, /fields\.0\.type/],
    ] as const) {
      const res = await call(collectionsRoute.POST, "POST", "/x", { key: a.key, params: { siteId: site.id }, body });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(msg);
    }
  });

  it("checks entry fields against the collection and stores nothing on a bad one", async () => {
    const db = await getDb();
    const before = (await db.select().from(cmsEntries)).length;
    for (const [fields, msg] of [
      [{ body: "sem título" }, /fields\.headline`: is required/],
      [{ headline: "   " }, /fields\.headline`: is required/],
      [{ headline: "Oi", colour: "red" }, /no field 'colour'/],
      [{ headline: "Oi", readingMinutes: "five" }, /readingMinutes`: must be a number/],
      [{ headline: "Oi", cover: "javascript:alert(1)" }, /cover`: must be an http/],
    ] as const) {
      const res = await entry(a, { slug: "x", fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.error.message).toMatch(msg);
    }
    expect((await db.select().from(cmsEntries)).length).toBe(before);
  });

  it("sets publishedAt on first publication and keeps it; slugs are unique per collection", async () => {
    const draft = await entry(a, { slug: "primeiro-post", fields: { headline: "Primeiro" } });
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ status: "draft", publishedAt: null, seo: null });
    expect((await entry(a, { slug: "primeiro-post", fields: { headline: "Outro" } })).status).toBe(409);
    const ids = { siteId: site.id, collectionId: blog.id, entryId: draft.body.id };
    const pub = await call(entryRoute.PATCH, "PATCH", "/x", {
      key: a.key,
      params: ids,
      body: { status: "published", seo: { title: "SEO", description: null } },
    });
    expect(pub.body.publishedAt).toEqual(expect.any(String));
    const back = await call(entryRoute.PATCH, "PATCH", "/x", { key: a.key, params: ids, body: { status: "draft" } });
    expect(back.body.publishedAt).toBe(pub.body.publishedAt);
    await call(entryRoute.PATCH, "PATCH", "/x", { key: a.key, params: ids, body: { status: "published" } });
    expect((await call(entryRoute.GET, "GET", "/x", { key: a.key, params: ids })).body.publishedAt).toBe(pub.body.publishedAt);
  });

  it("refuses restricted keys, and another tenant's key sees and changes nothing", async () => {
    const broker = await makeMember(a, "broker", "restricted");
    expect((await call(collectionsRoute.GET, "GET", "/x", { key: broker.key, params: { siteId: site.id } })).status).toBe(403);
    expect((await call(collectionsRoute.GET, "GET", "/x", { key: b.key, params: { siteId: site.id } })).status).toBe(404);
    expect(
      (await call(collectionRoute.PATCH, "PATCH", "/x", { key: b.key, params: { siteId: siteB.id, collectionId: blog.id }, body: { name: "Hack" } })).status,
    ).toBe(404);
    expect((await entry(b, { slug: "hack", fields: { headline: "x" } }, siteB)).status).toBe(404);
    expect((await call(entriesRoute.GET, "GET", "/x", { key: b.key, params: { siteId: siteB.id, collectionId: blog.id } })).status).toBe(404);
  });
});

describe("public side", () => {
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) await entry(a, { slug: `post-${i}`, status: "published", fields: { headline: `Post ${i}` } });
    await entry(a, { slug: "rascunho", status: "draft", fields: { headline: "Rascunho" } });
  });
  const get = (route: { GET: any }, params: Record<string, string>, query: Record<string, string> = {}) =>
    call(route.GET, "GET", "/x", { params, query, headers: headers() });

  it("lists collections and one by slug, with CORS and cache headers", async () => {
    const res = await get(pubCollectionsRoute, { siteId: site.id });
    expect(res.body.collections.map((c: any) => c.slug)).toEqual(["blog"]);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    expect((await get(pubCollectionRoute, { siteId: site.id, slug: "blog" })).body).toMatchObject({ id: blog.id, slug: "blog" });
    const missing = await get(pubCollectionRoute, { siteId: site.id, slug: "nope" });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("Collection not found");
  });

  it("pages published entries only, newest first, limit at most 100", async () => {
    const all = await get(pubEntriesRoute, { siteId: site.id, collection: "blog" });
    expect(all.body.total).toBe(4); // primeiro-post and three posts; never the draft
    expect(all.body.entries.every((e: any) => e.status === "published")).toBe(true);
    expect(all.body.entries.map((e: any) => e.slug)).not.toContain("rascunho");
    expect(all.body).toMatchObject({ limit: 50, offset: 0 });
    const page = await get(pubEntriesRoute, { siteId: site.id, collection: "blog" }, { limit: "2", offset: "1" });
    expect(page.body.entries).toHaveLength(2);
    expect(page.body.entries[0].slug).toBe(all.body.entries[1].slug);
    const big = await get(pubEntriesRoute, { siteId: site.id, collection: "blog" }, { limit: "101" });
    expect(big.status).toBe(400);
    expect(big.body.error.message).toContain("limit");
  });

  it("answers one published entry, 404 Entry not found for a draft, and nothing of another site", async () => {
    expect((await get(pubEntryRoute, { siteId: site.id, collection: "blog", entrySlug: "post-1" })).body.entry).toMatchObject({
      slug: "post-1",
      fields: { headline: "Post 1" },
    });
    const draft = await get(pubEntryRoute, { siteId: site.id, collection: "blog", entrySlug: "rascunho" });
    expect(draft.status).toBe(404);
    expect(draft.body.error.message).toBe("Entry not found");
    expect((await get(pubEntriesRoute, { siteId: siteB.id, collection: "blog" })).body.error.message).toBe("Collection not found");
    expect((await get(pubCollectionsRoute, { siteId: siteB.id })).body.collections).toEqual([]);
    expect((await get(pubCollectionsRoute, { siteId: "x" })).body.error.message).toBe("Site not found");
  });
});
