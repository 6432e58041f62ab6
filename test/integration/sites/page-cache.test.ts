/**
 * Issue 38: rendered site pages from a cache that is never stale. Our server's listener
 * (`requestListener`, the one `npm start` runs) in front of a stand-in for Next.js that renders
 * from the real database the way the pages do (the site by host, its listing by code, its catalogue
 * through the public search, a CMS entry) and notes what it shows with the site layout's own call
 * (`noteSitePage`). The pages themselves (React) need the production build: the same checks run
 * through nginx on two nodes in test/integration/platform/cluster-local.test.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import * as listingRoute from "../../../app/api/v1/real-estate/listings/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import * as searchRoute from "../../../app/api/sites/[siteId]/search/route";
import * as siteRoute from "../../../app/api/v1/sites/[siteId]/route";
import * as entriesRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/[collectionId]/entries/route";
import * as entryRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/[collectionId]/entries/[entryId]/route";
import * as collectionsRoute from "../../../app/api/v1/sites/[siteId]/cms/collections/route";
import { resetConfigForTests } from "../../../lib/config";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { publicEntry } from "../../../lib/cms/public-cms";
import { PAGE_CACHE_HEADER } from "../../../lib/page-cache/page-lane";
import { noteListingView, noteSitePage, openNote, RENDER_NOTE_HEADER, takeNote } from "../../../lib/page-cache/render-notes";
import { cacheMark, cachedPage, clearPages, invalidateTags, storePage } from "../../../lib/page-cache/page-store";
import { pageCacheLive, startPageCacheListener } from "../../../lib/page-cache/listener";
import { requestListener } from "../../../lib/server/web-server";
import { siteByDomain } from "../../../lib/sites/load-site";
import { findPropertyDetail } from "../../../lib/sites/property-detail";
import { settleAfterCommit } from "../../../db/transaction";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let renders = 0;
let cookieOnNext = false;

/** The stand-in for Next.js: what a site page shows, read from the database on every render. */
async function render(req: http.IncomingMessage, res: http.ServerResponse) {
  renders++;
  const db = await getDb();
  const host = String(req.headers.host);
  const site = await siteByDomain(db, host);
  if (!site) return void res.writeHead(404, { "content-type": "text/html" }).end("no site");
  // What the site layout does on every page.
  await noteSitePage((req.headers[RENDER_NOTE_HEADER] as string) ?? null, db, site);
  const url = new URL(req.url ?? "/", "http://x");
  if (cookieOnNext) res.setHeader("set-cookie", "ab=1");
  const html = (body: string) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.setHeader("cache-control", "private, no-cache, no-store, max-age=0, must-revalidate");
    res.writeHead(200);
    res.write(`<html><title>${site.name}</title>`);
    res.end(`${body}</html>`);
  };
  const listing = url.pathname.match(/^\/imovel\/([^/]+)$/);
  if (listing) {
    const found = await findPropertyDetail(db, site, decodeURIComponent(listing[1])).catch(() => null);
    if (!found) return void res.writeHead(404, { "content-type": "text/html" }).end("gone");
    if (found.listingId) noteListingView((req.headers[RENDER_NOTE_HEADER] as string) ?? null, { tenantId: site.tenantId, listingId: found.listingId });
    return html(`<p class="price">${found.doc.price}</p>`);
  }
  if (url.pathname === "/imoveis") {
    const r = await call(searchRoute.POST, "POST", "/x", {
      body: { q: "*", per_page: 50 },
      params: { siteId: site.id },
      headers: { [CLIENT_ADDRESS_HEADER]: "10.7.0.1" },
    });
    return html(`<ul>${r.body.hits.map((h: any) => `<li>${h.document.title}</li>`).join("")}</ul>`);
  }
  const blog = url.pathname.match(/^\/blog\/([^/]+)$/);
  if (blog) {
    const e = await publicEntry(db, site, "blog", blog[1]).catch(() => null);
    return e ? html(`<h1>${e.entry.fields.headline}</h1>`) : void res.writeHead(404, { "content-type": "text/html" }).end("gone");
  }
  // A page big enough for our server to compress it on its way out (lib/server/static-documents.ts).
  return html(`<p>home</p>${url.searchParams.has("pad") ? `<p>${"casa ".repeat(600)}</p>` : ""}`);
}

let server: http.Server;
let port: number;
let a: TestTenant;
let b: TestTenant;
let siteA: { id: string; domain: string };
let siteB: { id: string; domain: string };
const listing: Record<string, { id: string; code: string }> = {};

function get(host: string, path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; body: string; cache: string | undefined; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          cache: res.headers[PAGE_CACHE_HEADER] as string | undefined,
          headers: res.headers,
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

async function makeListing(t: TestTenant, key: string, title: string, price: string) {
  const res = await call(propertiesRoute.POST, "POST", "/x", {
    key: t.key,
    body: {
      property: { type: "apartment", bedrooms: 2, totalArea: "80" },
      location: { neighborhood: "Pinheiros", city: "São Paulo", state: "SP" },
      listings: [{ title, type: "sale", price, priceVisibility: "public", visibility: "public", stage: "active" }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  listing[key] = { id: res.body.listings[0].id, code: res.body.listings[0].listingCode };
}

const patchListing = async (t: TestTenant, key: string, body: unknown) => {
  const res = await call(listingRoute.PATCH, "PATCH", "/x", { key: t.key, params: { id: listing[key].id }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // As an HTTP answer would: the after-commit work has started before the client reads the answer.
  await settleAfterCommit();
};

beforeAll(async () => {
  process.env.PAGE_CACHE = "on";
  resetConfigForTests();
  a = await makeTenant("Cache A");
  b = await makeTenant("Cache B");
  siteA = await makeSite(a);
  siteB = await makeSite(b);
  await makeListing(a, "a1", "Apartamento cacheado", "812345.00");
  await makeListing(a, "a2", "Apartamento vizinho", "500000.00");
  await makeListing(b, "b1", "Apartamento da outra", "700000.00");
  // What our server does before it serves (startWebServer): on the embedded database, live at once.
  await startPageCacheListener();
  expect(pageCacheLive()).toBe(true);
  server = http.createServer(requestListener((req, res) => render(req, res)));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  delete process.env.PAGE_CACHE;
  resetConfigForTests();
});

describe("site pages from the page cache", () => {
  it("answers a page again from the cache, then shows a price change on the very next request", async () => {
    const path = `/imovel/${listing.a1.code}`;
    const first = await get(siteA.domain, path);
    expect([first.status, first.cache]).toEqual([200, "miss"]);
    expect(first.body).toContain("812345");
    const before = renders;
    const second = await get(siteA.domain, path);
    expect([second.status, second.cache, renders]).toEqual([200, "hit", before]);
    expect(second.body).toBe(first.body);
    // A stored page never carries one answer's own headers.
    expect(second.headers["content-length"]).toBe(String(Buffer.byteLength(first.body)));
    expect(second.headers.date).toBeDefined();

    await patchListing(a, "a1", { price: "799000.00" });
    const after = await get(siteA.domain, path);
    expect(after.cache).toBe("miss");
    expect(after.body).toContain("799000");
    expect(after.body).not.toContain("812345");
    expect((await get(siteA.domain, path)).cache).toBe("hit");
  });

  it("drops an unpublished listing from the catalogue at once, and its page answers 404", async () => {
    expect((await get(siteA.domain, "/imoveis")).body).toContain("Apartamento vizinho");
    expect((await get(siteA.domain, "/imoveis")).cache).toBe("hit");
    expect((await get(siteA.domain, `/imovel/${listing.a2.code}`)).status).toBe(200);
    await patchListing(a, "a2", { visibility: "private" });
    const catalogue = await get(siteA.domain, "/imoveis");
    expect(catalogue.body).not.toContain("Apartamento vizinho");
    expect(catalogue.body).toContain("Apartamento cacheado");
    expect((await get(siteA.domain, `/imovel/${listing.a2.code}`)).status).toBe(404);
  });

  it("shows a site settings change at once (the site rows this process keeps are forgotten too)", async () => {
    expect((await get(siteA.domain, "/")).body).toContain("<title>Site");
    expect((await get(siteA.domain, "/")).cache).toBe("hit");
    const res = await call(siteRoute.PATCH, "PATCH", "/x", { key: a.key, params: { siteId: siteA.id }, body: { name: "Novo Nome do Site" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await settleAfterCommit();
    const after = await get(siteA.domain, "/");
    expect(after.cache).toBe("miss");
    expect(after.body).toContain("<title>Novo Nome do Site</title>");
  });

  it("shows a CMS entry change at once", async () => {
    const col = await call(collectionsRoute.POST, "POST", "/x", {
      key: a.key,
      params: { siteId: siteA.id },
      body: { name: "Blog", slug: "blog", fields: [{ id: "headline", label: "Título", type: "text", required: true }] },
    });
    expect(col.status, JSON.stringify(col.body)).toBe(201);
    const params = { siteId: siteA.id, collectionId: col.body.id };
    const entry = await call(entriesRoute.POST, "POST", "/x", {
      key: a.key,
      params,
      body: { slug: "post", status: "published", fields: { headline: "Primeira versão" } },
    });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    await settleAfterCommit();
    expect((await get(siteA.domain, "/blog/post")).body).toContain("Primeira versão");
    expect((await get(siteA.domain, "/blog/post")).cache).toBe("hit");
    const upd = await call(entryRoute.PATCH, "PATCH", "/x", {
      key: a.key,
      params: { ...params, entryId: entry.body.id },
      body: { fields: { headline: "Segunda versão" } },
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    await settleAfterCommit();
    expect((await get(siteA.domain, "/blog/post")).body).toContain("Segunda versão");
  });

  it("keeps tenants apart: one tenant's change leaves another's pages cached, and a host never gets another site's page", async () => {
    const bPath = `/imovel/${listing.b1.code}`;
    await get(siteB.domain, bPath);
    await get(siteB.domain, "/imoveis");
    expect((await get(siteB.domain, bPath)).cache).toBe("hit");
    await patchListing(a, "a1", { price: "798000.00" });
    expect((await get(siteB.domain, bPath)).cache).toBe("hit");
    // The same address on another site is that site's own page (codes are per tenant: A's first
    // listing and B's may share one), never A's cached page.
    expect((await get(siteA.domain, `/imovel/${listing.a1.code}`)).body).toContain("798000");
    const cross = await get(siteB.domain, `/imovel/${listing.a1.code}`);
    expect(cross.body).not.toContain("798000");
    expect(cross.body).toContain("<title>Site");
    const catalogueB = await get(siteB.domain, "/imoveis");
    expect(catalogueB.body).toContain("Apartamento da outra");
    expect(catalogueB.body).not.toContain("Apartamento cacheado");
    // And B's change reaches B's pages.
    await patchListing(b, "b1", { price: "650000.00" });
    const b1 = await get(siteB.domain, bPath);
    expect([b1.cache, b1.body.includes("650000")]).toEqual(["miss", true]);
  });

  it("never stores what varies per visitor or is not a page: cookies set, client-router requests, 404s, HEAD misses, the service's hosts", async () => {
    const path = `/imovel/${listing.a1.code}?v=cookie`;
    cookieOnNext = true;
    try {
      expect((await get(siteA.domain, path)).status).toBe(200);
      expect((await get(siteA.domain, path)).cache).toBe("miss");
    } finally {
      cookieOnNext = false;
    }
    const rsc = `/imovel/${listing.a1.code}?v=rsc`;
    await get(siteA.domain, rsc, { rsc: "1" });
    expect((await get(siteA.domain, rsc, { rsc: "1" })).cache).toBeUndefined();
    expect((await get(siteA.domain, `${rsc}&_rsc=abc`)).cache).toBeUndefined();
    expect((await get(siteA.domain, rsc)).cache).toBe("miss");
    await get(siteA.domain, "/imovel/NAO-EXISTE");
    expect((await get(siteA.domain, "/imovel/NAO-EXISTE")).cache).toBe("miss");
    const head = `/imovel/${listing.a1.code}?v=head`;
    // A HEAD is answered from a GET's page, never stored itself.
    expect((await get(siteA.domain, head, {}, "HEAD")).cache).toBeUndefined();
    expect((await get(siteA.domain, head, {}, "HEAD")).cache).toBeUndefined();
    await get(siteA.domain, head);
    const headHit = await get(siteA.domain, head, {}, "HEAD");
    expect([headHit.cache, headHit.body]).toEqual(["hit", ""]);
    // The service's own host (and a site preview on it) is never cached.
    expect((await get("localhost", "/")).cache).toBeUndefined();
    expect((await get("localhost", `/s/${siteA.id}`)).cache).toBeUndefined();
  });

  it("serves the cached page gzipped to a client that accepts it", async () => {
    const path = `/imovel/${listing.a1.code}?v=gzip`;
    const plain = await get(siteA.domain, path);
    const res = await new Promise<{ enc?: string; body: Buffer }>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path, headers: { host: siteA.domain, "accept-encoding": "gzip" } }, (r) => {
          const chunks: Buffer[] = [];
          r.on("data", (c: Buffer) => chunks.push(c));
          r.on("end", () => resolve({ enc: r.headers["content-encoding"], body: Buffer.concat(chunks) }));
        })
        .on("error", reject);
    });
    expect(res.enc).toBe("gzip");
    const { gunzipSync } = await import("node:zlib");
    expect(gunzipSync(res.body).toString("utf8")).toBe(plain.body);
  });

  it("keeps a page sent compressed to its first visitor (a browser's document request) plain, and serves it either way", async () => {
    const fetchRaw = (headers: Record<string, string>) =>
      new Promise<{ enc?: string; cache?: string; body: Buffer }>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path: "/?pad=1", headers: { host: siteA.domain, accept: "text/html", ...headers } }, (r) => {
            const chunks: Buffer[] = [];
            r.on("data", (c: Buffer) => chunks.push(c));
            r.on("end", () => resolve({ enc: r.headers["content-encoding"], cache: r.headers[PAGE_CACHE_HEADER] as string, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
    const { gunzipSync } = await import("node:zlib");
    const first = await fetchRaw({ "accept-encoding": "gzip" });
    expect([first.cache, first.enc]).toEqual(["miss", "gzip"]);
    const page = gunzipSync(first.body).toString("utf8");
    expect(page).toContain("casa casa");
    const plain = await fetchRaw({});
    expect([plain.cache, plain.enc]).toEqual(["hit", undefined]);
    expect(plain.body.toString("utf8")).toBe(page);
    const zipped = await fetchRaw({ "accept-encoding": "gzip, br" });
    expect([zipped.cache, zipped.enc]).toEqual(["hit", "gzip"]);
    expect(gunzipSync(zipped.body).toString("utf8")).toBe(page);
  });

  it("a render that started before an invalidation of what it shows does not store its page", () => {
    clearPages();
    const mark = cacheMark();
    invalidateTags(["t:some-tenant"]);
    expect(storePage("k1", { headers: {}, body: Buffer.from("old"), tags: ["t:some-tenant"] }, mark)).toBe(false);
    expect(cachedPage("k1")).toBeUndefined();
    // Another tenant's invalidation does not concern it.
    const mark2 = cacheMark();
    invalidateTags(["t:other"]);
    expect(storePage("k2", { headers: {}, body: Buffer.from("ok"), tags: ["t:some-tenant"] }, mark2)).toBe(true);
    invalidateTags(["t:some-tenant"]);
    expect(cachedPage("k2")).toBeUndefined();
  });

  it("keeps a page whose chat says online or offline by the clock only until the next minute", async () => {
    const db = await getDb();
    const token = "chat-hours-token";
    openNote(token);
    const at = Date.UTC(2026, 10, 27, 21, 30, 15);
    await noteSitePage(token, db, { id: "s1", tenantId: "t1", chat: { hours: { timeZone: "America/Sao_Paulo", weekly: [] } } }, at);
    expect(takeNote(token)?.until).toBe(Date.UTC(2026, 10, 27, 21, 31, 0));
    openNote(token);
    await noteSitePage(token, db, { id: "s1", tenantId: "t1", chat: null }, at);
    expect(takeNote(token)?.until).toBeUndefined();
    expect(storePage("gone", { headers: {}, body: Buffer.from("x"), tags: ["s:s1"], until: Date.now() - 1 }, cacheMark())).toBe(false);
    expect(storePage("soon", { headers: {}, body: Buffer.from("x"), tags: ["s:s1"], until: Date.now() + 100 }, cacheMark())).toBe(true);
    expect(cachedPage("soon")).toBeDefined();
    await new Promise((r) => setTimeout(r, 150));
    expect(cachedPage("soon")).toBeUndefined();
  });
});
