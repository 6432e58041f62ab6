import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "../../../lib/config";
import { parsePhotoAddress, photoAddress } from "../../../lib/media/photo-address";
import { photoLane } from "../../../lib/media/photo-lane";
import { servePhoto } from "../../../lib/media/serve-photo";
import { forgetSourcesForTests, knownSource } from "../../../lib/media/source-index";
import { previewPhoto, responsivePhoto } from "../../../lib/listings/view/responsive-photo";
import { ListingGallery } from "../../../app/site-render/_site/components/listing-gallery";
import { translator } from "../../../lib/i18n/translator";
import { production } from "../../helpers/outbound";
import { makeJpeg, startPhotoServer, type PhotoServer } from "../../helpers/photo-server";

/** The tenant whose pages sign the addresses (no host is given: the service's own, which serves every tenant). */
const TENANT = "0b0e7c1e-4a1f-4c55-9d0e-1b2c3d4e5f60";
const WEBP = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8";
let srv: PhotoServer;
let jpeg: Buffer;
let cacheDir: string;

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex").slice(0, 20);
const get = (src: string, width: 320 | 480 | 640 | 768 | 960 | 1280 | 1600, accept = WEBP, hash: string | null = null) =>
  servePhoto(new URL(photoAddress(TENANT, src, width, hash), "http://x").pathname, { accept });

beforeAll(async () => {
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "media-cache-"));
  vi.stubEnv("MEDIA_CACHE_DIR", cacheDir);
  resetConfigForTests();
  jpeg = await makeJpeg();
  srv = await startPhotoServer();
  for (const p of ["/a.jpg", "/b.jpg", "/c.jpg", "/lane.jpg"]) srv.set(p, { body: jpeg });
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.stubEnv("MEDIA_CACHE_DIR", cacheDir);
  resetConfigForTests();
});
afterAll(async () => {
  await srv.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

describe("resized listing photos", () => {
  it("resizes to the asked width in 3:2, WebP for a browser that takes it and JPEG for one that does not", async () => {
    const src = `${srv.origin}/a.jpg`;
    const webp = await get(src, 640);
    expect(webp.status).toBe(200);
    expect(webp.headers["content-type"]).toBe("image/webp");
    expect(webp.headers.vary).toBe("Accept");
    expect(await sharp(webp.body).metadata()).toMatchObject({ format: "webp", width: 640, height: 427 });
    expect(webp.body.length).toBeLessThan(jpeg.length / 5);
    const plain = await get(src, 1280, "*/*");
    expect(plain.headers["content-type"]).toBe("image/jpeg");
    expect(await sharp(plain.body).metadata()).toMatchObject({ format: "jpeg", width: 1280, height: 853 });
  });

  it("addresses a seen photo by the hash of its bytes, cached for good; the same bytes elsewhere share the variant", async () => {
    const src = `${srv.origin}/a.jpg`;
    await get(src, 640);
    expect(knownSource(src)?.hash).toBe(sha(jpeg));
    const r = responsivePhoto(TENANT, src, "cover");
    expect(r.srcSet).toContain(`/${sha(jpeg)}-1600 1600w`);
    expect(r.srcSet?.split(", ")).toHaveLength(7);
    expect(r).toMatchObject({ width: 768, height: 512 });
    const hashed = await get(src, 640, WEBP, sha(jpeg));
    expect(hashed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(hashed.headers.etag).toBe(`"${sha(jpeg)}-640.webp"`);
    // An address written before the bytes were known is cached briefly only.
    expect((await get(src, 640)).headers["cache-control"]).toBe("public, max-age=300");
    // Other bytes, another address.
    const other = await makeJpeg(1200, 800, 3);
    srv.set("/other.jpg", { body: other });
    await get(`${srv.origin}/other.jpg`, 320);
    expect(responsivePhoto(TENANT, `${srv.origin}/other.jpg`, "thumb").srcSet).toContain(`/${sha(other)}-480 480w`);
    expect(sha(other)).not.toBe(sha(jpeg));
  });

  it("fetches a source once: every width and format afterwards, and after the process forgets, comes from the cache", async () => {
    const src = `${srv.origin}/b.jpg`;
    for (const w of [320, 640, 960, 1600] as const) {
      await get(src, w);
      await get(src, w, "*/*");
      await get(src, w);
    }
    forgetSourcesForTests();
    expect((await get(src, 480)).status).toBe(200);
    expect(srv.hits("/b.jpg")).toBe(1);
  });

  it("asks a source again after MEDIA_SOURCE_REVALIDATE_SECONDS: unchanged, a 304 and the same addresses; changed, new addresses", async () => {
    const src = `${srv.origin}/r.jpg`;
    let etag = '"v1"';
    let body = jpeg;
    const conditional: string[] = [];
    srv.set("/r.jpg", { body, headers: { etag } });
    await get(src, 320);
    expect(knownSource(src)).toMatchObject({ hash: sha(jpeg), etag: '"v1"' });
    vi.stubEnv("MEDIA_SOURCE_REVALIDATE_SECONDS", "1");
    resetConfigForTests();
    // Fresh: a render asks nothing.
    responsivePhoto(TENANT, src, "cover");
    expect(srv.hits("/r.jpg")).toBe(1);
    // Stale and unchanged: the server sees the validator and answers 304.
    await new Promise((r) => setTimeout(r, 1100));
    srv.respond("/r.jpg", (req) => {
      conditional.push(String(req.headers["if-none-match"]));
      return req.headers["if-none-match"] === etag ? { status: 304, headers: { etag } } : { body, headers: { etag } };
    });
    const { revalidateSource } = await import("../../../lib/media/photo-variant");
    responsivePhoto(TENANT, src, "cover");
    expect(await revalidateSource(src, knownSource(src)!)).toBe(sha(jpeg));
    expect(conditional).toEqual(['"v1"']);
    expect(responsivePhoto(TENANT, src, "cover").srcSet).toContain(`/${sha(jpeg)}-768 768w`);
    // Stale and changed: new bytes, new hash, new addresses; the old address still answers.
    await new Promise((r) => setTimeout(r, 1100));
    body = await makeJpeg(1200, 800, 7);
    etag = '"v2"';
    responsivePhoto(TENANT, src, "cover");
    expect(await revalidateSource(src, knownSource(src)!)).toBe(sha(body));
    expect(responsivePhoto(TENANT, src, "cover").srcSet).toContain(`/${sha(body)}-768 768w`);
    expect((await get(src, 320, WEBP, sha(jpeg))).headers["cache-control"]).toContain("immutable");
  });

  it("resizes once when many ask for the same new variant at the same time", async () => {
    const src = `${srv.origin}/c.jpg`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(src, 960)));
    expect(answers.every((a) => a.status === 200 && a.headers["content-type"] === "image/webp")).toBe(true);
    expect(new Set(answers.map((a) => a.body.toString("base64"))).size).toBe(1);
    expect(srv.hits("/c.jpg")).toBe(1);
    expect(fs.readdirSync(path.join(cacheDir, "variants", sha(jpeg).slice(0, 2), sha(jpeg))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("shows a placeholder, never an error, for a refused, oversized, broken, redirected, missing or slow source", async () => {
    const big = await makeJpeg(2400, 1600, 5);
    srv.set("/big.jpg", { body: big });
    srv.set("/broken.jpg", { body: Buffer.from("this is not a jpeg at all") });
    srv.set("/html.jpg", { body: Buffer.from("<html></html>"), type: "text/html" });
    srv.set("/moved.jpg", { status: 302, headers: { location: "/a.jpg" } });
    srv.set("/slow.jpg", { hang: true });
    vi.stubEnv("MEDIA_SOURCE_MAX_BYTES", String(big.length - 1));
    vi.stubEnv("MEDIA_SOURCE_TIMEOUT_MS", "300");
    resetConfigForTests();
    const cases: [string, string][] = [
      ["/big.jpg", "too_large"],
      ["/broken.jpg", "not_an_image"],
      ["/html.jpg", "not_an_image"],
      ["/moved.jpg", "unreachable"],
      ["/nothing.jpg", "unreachable"],
      ["/slow.jpg", "timeout"],
    ];
    const aHits = srv.hits("/a.jpg");
    for (const [p, reason] of cases) {
      const started = Date.now();
      const a = await get(`${srv.origin}${p}`, 640);
      expect([p, a.status, a.headers["x-photo-placeholder"], a.headers["content-type"]]).toEqual([p, 200, reason, "image/svg+xml"]);
      expect(a.headers["cache-control"]).toBe("public, max-age=60");
      expect(a.body.toString()).toContain('width="640" height="427"');
      expect(Date.now() - started).toBeLessThan(3000);
    }
    // The redirect was not followed.
    expect(srv.hits("/a.jpg")).toBe(aHits);
    // A local file that is not there.
    expect((await get("/_media/demo/nope-001.jpg", 320)).headers["x-photo-placeholder"]).toBe("missing");
  });

  it("in production, a private address is refused before any connection, unless WEBHOOKS_ALLOW_PRIVATE_URLS", async () => {
    srv.set("/private.jpg", { body: jpeg });
    production(false);
    const refused = await get(`${srv.origin}/private.jpg`, 320);
    expect(refused.headers["x-photo-placeholder"]).toBe("refused");
    expect(srv.hits("/private.jpg")).toBe(0);
    production(true);
    expect((await get(`${srv.origin}/private.jpg`, 320)).headers["content-type"]).toBe("image/webp");
    expect(srv.hits("/private.jpg")).toBe(1);
  });

  it("is no open proxy: an address the service did not sign, or a width it does not make, is a 404 and fetches nothing", async () => {
    srv.set("/secret.jpg", { body: jpeg });
    const good = new URL(photoAddress(TENANT, `${srv.origin}/secret.jpg`, 640, null), "http://x").pathname;
    const [, , , tenant, token, last] = good.split("/");
    const [b64] = token.split(".");
    const forged = [
      `/_media/p/${tenant}/${b64}.AAAAAAAAAAAAAAAA/${last}`,
      `/_media/p/${tenant}/${Buffer.from(`${srv.origin}/other-secret.jpg`).toString("base64url")}.${token.split(".")[1]}/${last}`,
      // The tenant is signed: the same address under another tenant's id is not ours.
      `/_media/p/${tenant.replace(/^0/, "1")}/${token}/${last}`,
      `/_media/p/${token}/${last}`,
      good.replace(/-640$/, "-641"),
      good.replace(/-640$/, "-5000"),
      `/_media/p/${tenant}/${b64}/0-640`,
    ];
    for (const p of forged) {
      expect(parsePhotoAddress(p)).toBeNull();
      const a = await servePhoto(p, { accept: WEBP });
      expect([p, a.status]).toEqual([p, 404]);
    }
    expect(srv.hits("/secret.jpg")).toBe(0);
    expect(srv.hits("/other-secret.jpg")).toBe(0);
    // SVG and addresses that are not photos are left as they are.
    expect(responsivePhoto(TENANT, "/demo/living-room-01.svg", "cover")).toEqual({ src: "/demo/living-room-01.svg", width: 1200, height: 800 });
    expect(previewPhoto(TENANT, "/demo/a.svg", "https://site.example")).toBe("https://site.example/demo/a.svg");
  });

  it("serves on the server's own lane with its length and cache headers, 304 on a matching ETag, 405 for a POST", async () => {
    const server = http.createServer((req, res) => {
      if (!photoLane(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const src = `${srv.origin}/lane.jpg`;
      await get(src, 320);
      const url = base + photoAddress(TENANT, src, 480, sha(jpeg));
      const res = await fetch(url, { headers: { accept: WEBP } });
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.status).toBe(200);
      expect(res.headers.get("content-length")).toBe(String(body.length));
      expect(res.headers.get("cache-control")).toContain("immutable");
      expect((await sharp(body).metadata()).width).toBe(480);
      const again = await fetch(url, { headers: { accept: WEBP, "if-none-match": res.headers.get("etag")! } });
      expect(again.status).toBe(304);
      expect((await fetch(url, { method: "POST" })).status).toBe(405);
      expect((await fetch(`${base}/_media/p/nothing`)).status).toBe(404);
      expect((await fetch(`${base}/_media/demo/%2e%2e%2f%2e%2e%2fetc%2fpasswd.jpg`)).status).toBe(404);
      expect((await fetch(`${base}/elsewhere`)).status).toBe(418);
      // Leaflet's stylesheet comes from the installed package, at an address naming its version.
      const leafletVersion = JSON.parse(fs.readFileSync(path.join(process.cwd(), "node_modules/leaflet/package.json"), "utf8")).version;
      const css = await fetch(`${base}/_media/vendor/leaflet-${leafletVersion}.css`);
      expect(css.status).toBe(200);
      expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
      expect(css.headers.get("cache-control")).toContain("immutable");
      expect(await css.text()).toContain(".leaflet-pane");
      expect((await fetch(`${base}/_media/vendor/leaflet-0.0.0.css`)).status).toBe(404);
      // And its script, which the listing and share pages' map loads (public/listing-map.js names this address).
      const js = await fetch(`${base}/_media/vendor/leaflet-${leafletVersion}.js`);
      expect([js.status, js.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
      expect(fs.readFileSync(path.join(process.cwd(), "public/listing-map.js"), "utf8")).toContain(`/_media/vendor/leaflet-${leafletVersion}.js`);
    } finally {
      server.close();
    }
  });

  it("a listing page's gallery: srcset and sizes on every photo, the first eager with high priority, the rest lazy, sizes set", async () => {
    const src = `${srv.origin}/a.jpg`;
    const images = [src, `${srv.origin}/b.jpg`, `${srv.origin}/c.jpg`, `${srv.origin}/lane.jpg`];
    const html = renderToStaticMarkup(ListingGallery({ tenantId: TENANT, images, t: translator("en") }));
    const imgs = html.match(/<img [^>]+>/g) ?? [];
    expect(imgs).toHaveLength(4);
    expect(imgs[0]).toMatch(/fetchPriority="high"/i);
    expect(imgs[0]).toContain('loading="eager"');
    expect(imgs[0]).toContain('sizes="(max-width: 900px) calc(100vw - 32px), 760px"');
    expect(imgs[0]).toContain(`/${sha(jpeg)}-768 768w`);
    expect(imgs[0]).toMatch(/width="768" height="512"/);
    for (const img of imgs.slice(1)) {
      expect(img).toContain('loading="lazy"');
      expect(img).not.toMatch(/fetchpriority/i);
      expect(img).toMatch(/srcSet="[^"]+ 320w, /);
      expect(img).toMatch(/ sizes="[^"]+"/);
    }
    expect(imgs[3]).not.toContain(" 640w");
  });
});
