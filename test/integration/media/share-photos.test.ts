import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as pageRoute from "../../../app/share-render/[locale]/p/[token]/route";
import { resetConfigForTests } from "../../../lib/config";
import { parsePhotoAddress, photoAddress } from "../../../lib/media/photo-address";
import { servePhoto } from "../../../lib/media/serve-photo";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { makeListing, makeShareLink } from "../../helpers/share";
import { makeSite } from "../../helpers/sites";
import { photoLane } from "../../../lib/media/photo-lane";
import { makeJpeg, startPhotoServer, type PhotoServer } from "../../helpers/photo-server";

let srv: PhotoServer;
let t: TestTenant;
let other: TestTenant;
let cacheDir: string;

async function sharePage(token: string) {
  const headers = new Headers({ host: "localhost:3000", [CLIENT_ADDRESS_HEADER]: "10.99.0.1" });
  const req = new Request(`http://localhost:3000/share-render/pt-BR/p/${token}`, { headers });
  const res = await pageRoute.GET(req, { params: Promise.resolve({ locale: "pt-BR", token }) });
  return { status: res.status, html: await res.text() };
}

beforeAll(async () => {
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "media-share-"));
  vi.stubEnv("MEDIA_CACHE_DIR", cacheDir);
  resetConfigForTests();
  srv = await startPhotoServer();
  const jpeg = await makeJpeg(1200, 800);
  for (const p of ["/cover.jpg", "/kitchen.jpg", "/room.jpg"]) srv.set(p, { body: jpeg });
  t = await makeTenant("Imobiliária Fotos");
  other = await makeTenant("Outra Fotos");
});
afterAll(async () => {
  await srv.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

describe("photos on a share page", () => {
  it("every photo resized with srcset and sizes, the cover eager with high priority, the rest lazy; its addresses serve the photo", async () => {
    const l = await makeListing(
      t,
      {},
      {
        media: [
          { url: `${srv.origin}/cover.jpg`, isPrimary: true, alt: "Sala" },
          { url: `${srv.origin}/kitchen.jpg`, alt: "Cozinha" },
          { url: `${srv.origin}/room.jpg`, alt: "Quarto" },
        ],
      },
    );
    const link = await makeShareLink(t, { entityType: "listing", entityId: l.id });
    const { status, html } = await sharePage(link.token);
    expect(status).toBe(200);
    const imgs = (html.match(/<img [^>]+>/g) ?? []).filter((i) => i.includes("/_media/p/"));
    expect(imgs).toHaveLength(3);
    expect(imgs[0]).toMatch(/fetchpriority="high"/i);
    expect(imgs[0]).toContain('loading="eager"');
    expect(imgs[0]).toContain('alt="Sala"');
    expect(imgs[0]).toMatch(/srcSet="[^"]*-320 320w, [^"]*-1600 1600w"/);
    expect(imgs[0]).toMatch(/sizes="\(max-width: 900px\) calc\(100vw - 32px\), 760px"/);
    expect(imgs[0]).toMatch(/width="768" height="512"/);
    for (const img of imgs.slice(1)) {
      expect(img).toContain('loading="lazy"');
      expect(img).not.toMatch(/fetchpriority/i);
    }
    // The source address itself never reaches the page as an image: only signed, resized ones.
    expect(html).not.toContain(`src="${srv.origin}`);
    // The cover's own address serves it.
    const cover = /src="([^"]+)"/.exec(imgs[0])![1].replace(/&amp;/g, "&");
    const req = parsePhotoAddress(cover);
    expect(req?.src).toBe(`${srv.origin}/cover.jpg`);
    const a = await servePhoto(cover, { accept: "image/webp" });
    expect([a.status, a.headers["content-type"]]).toEqual([200, "image/webp"]);
  });

  it("another tenant's share page never carries this tenant's photos", async () => {
    const mine = await makeListing(t, {}, { media: [{ url: `${srv.origin}/cover.jpg`, isPrimary: true }] });
    const theirs = await makeListing(other, {}, {});
    const link = await makeShareLink(other, { entityType: "listing", entityId: theirs.id });
    const { html } = await sharePage(link.token);
    expect(html).not.toContain("/_media/p/");
    // And a share link for this tenant's listing cannot be made with the other tenant's key.
    await expect(makeShareLink(other, { entityType: "listing", entityId: mine.id })).rejects.toThrow(/404|400/);
  });

  it("a photo address is served only on its tenant's hosts: another tenant's site answers 404 and fetches nothing", async () => {
    const l = await makeListing(t, {}, { media: [{ url: `${srv.origin}/cover.jpg`, isPrimary: true }] });
    const link = await makeShareLink(t, { entityType: "listing", entityId: l.id });
    const onPage = /<img [^>]*src="([^"]+)"/.exec((await sharePage(link.token)).html)![1];
    expect(parsePhotoAddress(onPage)?.tenantId).toBe(t.tenantId);
    // The same kind of address for a photo no page has asked for yet (a share page also warms its link preview's cover).
    srv.set("/tenant-only.jpg", { body: await makeJpeg(1200, 800, 5) });
    const cover = photoAddress(t.tenantId, `${srv.origin}/tenant-only.jpg`, 768, null);
    const mine = await makeSite(t);
    const theirs = await makeSite(other);
    // Through the server's lane, as a browser asks: the Host header decides.
    const server = http.createServer((req, res) => {
      if (!photoLane(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const port = (server.address() as AddressInfo).port;
    // node:http, not fetch: fetch does not send a Host header of its own choosing.
    const on = (host: string) =>
      new Promise<{ status: number; type: string }>((ok, fail) => {
        http
          .get({ host: "127.0.0.1", port, path: cover, headers: { host, accept: "image/webp" } }, (res) => {
            res.resume();
            res.on("end", () => ok({ status: res.statusCode!, type: String(res.headers["content-type"]) }));
          })
          .on("error", fail);
      });
    try {
      const refused = await on(theirs.domain);
      expect(refused.status).toBe(404);
      expect(refused.type).not.toMatch(/^image\//);
      expect((await on("unknown-agency.localhost:3000")).status).toBe(404);
      expect(srv.hits("/tenant-only.jpg")).toBe(0);
      // Its own site and the service's host (where share links of every tenant open) serve it.
      const own = await on(`${mine.domain}:3000`);
      expect([own.status, own.type]).toEqual([200, "image/webp"]);
      expect((await on("localhost:3000")).status).toBe(200);
      // Once made, the variant is still refused on the other tenant's site.
      expect((await on(theirs.domain)).status).toBe(404);
      expect(srv.hits("/tenant-only.jpg")).toBe(1);
    } finally {
      server.close();
    }
  });
});
