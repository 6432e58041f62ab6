/**
 * MEDIA_CACHE_MAX_MB: the photo cache stays under its limit by removing the least recently used
 * variants and originals in the background; a removed variant is made again on its next request.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "../../../lib/config";
import { forgetMediaCacheSizeForTests, mediaCacheSettled, pruneMediaCache } from "../../../lib/media/cache-prune";
import { photoAddress } from "../../../lib/media/photo-address";
import { servePhoto } from "../../../lib/media/serve-photo";
import { forgetSourcesForTests } from "../../../lib/media/source-index";
import { makeJpeg, startPhotoServer, type PhotoServer } from "../../helpers/photo-server";

const TENANT = "0b0e7c1e-4a1f-4c55-9d0e-1b2c3d4e5f61";
let srv: PhotoServer;
let dir: string;

/** Every file under variants/ and originals/, with its size. */
function cacheFiles(): { file: string; size: number }[] {
  const out: { file: string; size: number }[] = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push({ file: path.relative(dir, p), size: fs.statSync(p).size });
    }
  };
  walk(path.join(dir, "variants"));
  walk(path.join(dir, "originals"));
  return out;
}
const bytes = () => cacheFiles().reduce((a, f) => a + f.size, 0);

beforeAll(async () => {
  srv = await startPhotoServer();
  for (let i = 0; i < 6; i++) srv.set(`/p${i}.jpg`, { body: await makeJpeg(1200, 800, 20 + i) });
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "media-prune-"));
  vi.stubEnv("MEDIA_CACHE_DIR", dir);
  resetConfigForTests();
  forgetSourcesForTests();
  forgetMediaCacheSizeForTests();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await srv.close();
});

describe("the photo cache's limit", () => {
  it("removes the least recently used files first, down to 80 % of the limit, and nothing under it", async () => {
    const now = Date.now() / 1000;
    const files = ["variants/aa/aa1/320.webp", "variants/bb/bb1/320.webp", "variants/bb/bb1/640.webp", "originals/cc/cc1"];
    // Last used 4, 3, 2 and 1 hours ago; 10 KB each.
    files.forEach((f, i) => {
      const p = path.join(dir, f);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, Buffer.alloc(10_000, i));
      fs.utimesSync(p, now - (4 - i) * 3600, now - 5 * 3600);
    });
    // The source index is not counted or removed.
    fs.mkdirSync(path.join(dir, "sources/ab"), { recursive: true });
    fs.writeFileSync(path.join(dir, "sources/ab/x.json"), "{}");
    expect(await pruneMediaCache(40_000)).toMatchObject({ files: 4, removed: 0, totalBytes: 40_000 });
    // 35 KB allowed: down to 28 KB, so the two oldest go (and the folder of the first with its last file).
    expect(await pruneMediaCache(35_000)).toMatchObject({ files: 4, removed: 2, freedBytes: 20_000, totalBytes: 20_000 });
    expect(cacheFiles().map((f) => f.file)).toEqual(["variants/bb/bb1/640.webp", "originals/cc/cc1"]);
    expect(fs.existsSync(path.join(dir, "variants/aa/aa1"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "sources/ab/x.json"))).toBe(true);
  });

  it("keeps the cache under MEDIA_CACHE_MAX_MB while photos are served, and makes a removed variant again", async () => {
    const get = (i: number, width: 640 | 960) => servePhoto(photoAddress(TENANT, `${srv.origin}/p${i}.jpg`, width, null), { accept: "image/webp" });
    // Measure what one photo costs (its original and one variant), then allow about three.
    expect((await get(0, 960)).headers["content-type"]).toBe("image/webp");
    await mediaCacheSettled();
    const one = bytes();
    vi.stubEnv("MEDIA_CACHE_MAX_MB", String((one * 3.5) / 1024 / 1024));
    resetConfigForTests();
    for (let i = 1; i < 6; i++) {
      expect((await get(i, 960)).headers["content-type"]).toBe("image/webp");
      await mediaCacheSettled();
    }
    expect(bytes()).toBeLessThanOrEqual(one * 3.5);
    // The first photo, the least recently used, is gone; the last one is there.
    const names = cacheFiles().map((f) => f.file);
    expect(names.length).toBeLessThan(12);
    expect(srv.hits("/p5.jpg")).toBe(1);
    // Asked again, the pruned photo is fetched and made again (not a placeholder).
    const again = await get(0, 960);
    expect([again.status, again.headers["content-type"]]).toEqual([200, "image/webp"]);
    expect(srv.hits("/p0.jpg")).toBe(2);
  });
});
