import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as pageRoute from "../../../app/share-render/[locale]/p/[token]/route";
import { resetConfigForTests } from "../../../lib/config";
import { parsePhotoAddress } from "../../../lib/media/photo-address";
import { servePhoto } from "../../../lib/media/serve-photo";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { makeTenant, type TestTenant } from "../../helpers/factories";
import { makeListing, makeShareLink } from "../../helpers/share";
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
});
