/**
 * Listing photos (issue 36): what resizing costs the first time, how many cached variants a
 * second the server's photo lane answers, and what the listing page's LCP photo weighs.
 *
 *   npm run bench:photos                                  # the first two, on their own
 *   SITE_URL=http://demo.localhost:3000 npm run bench:photos   # also the LCP photo of a demo listing
 *
 * Targets: a 3 MB photo resized the first time ≤ 400 ms; a cached variant ≥ 1,000 a second; the
 * listing page's LCP image ≤ 120 KB (what Lighthouse's mobile phone, 412 px wide at 1.75×, takes).
 *
 * Sources are the demo's photographs when `DEMO_PHOTOS_DIR` (or `.data/demo-photos`) has them,
 * served from 127.0.0.1 so the path includes the guarded fetch; otherwise generated.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { resetConfigForTests } from "../../lib/config";
import { demoPhotosDir } from "../../lib/media/media-settings";
import { photoAddress } from "../../lib/media/photo-address";
import { photoLane } from "../../lib/media/photo-lane";
import { servePhoto } from "../../lib/media/serve-photo";
import { knownSource } from "../../lib/media/source-index";
import { loadClient, percentiles } from "./http-load";

/** Addresses are signed for a tenant; the bench asks on the service's own host, which serves every tenant without a lookup. */
const BENCH_TENANT = "00000000-0000-4000-8000-00000000be0c";
const WEBP = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8";
const cache = fs.mkdtempSync(path.join(os.tmpdir(), "bench-photos-"));
process.env.MEDIA_CACHE_DIR = cache;
process.env.LOG_LEVEL = "silent";
resetConfigForTests();

async function sources(n: number): Promise<Buffer[]> {
  const dir = demoPhotosDir();
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".jpg"))
        .map((f) => path.join(dir, f))
    : [];
  if (files.length >= n) {
    // The heaviest: the target is about a 3 MB photo.
    return files
      .map((f) => ({ f, size: fs.statSync(f).size }))
      .sort((a, b) => b.size - a.size)
      .slice(0, n)
      .map(({ f }) => fs.readFileSync(f));
  }
  return Promise.all(
    Array.from({ length: n }, (_, i) =>
      sharp({
        create: { width: 2400, height: 1600, channels: 3, background: { r: 90 + i, g: 120, b: 140 }, noise: { type: "gaussian", mean: 128, sigma: 22 } },
      })
        .jpeg({ quality: 92 })
        .toBuffer(),
    ),
  );
}

async function main() {
  const photos = await sources(12);
  const origin = http.createServer((req, res) => {
    const i = Number(/\/(\d+)\.jpg$/.exec(req.url ?? "")?.[1] ?? -1);
    if (!photos[i]) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/jpeg" }).end(photos[i]);
  });
  await new Promise<void>((ok) => origin.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  const mb = photos.reduce((s, p) => s + p.length, 0) / photos.length / 1e6;
  console.log(`Sources: ${photos.length} JPEGs of 2,400 × 1,600, ${mb.toFixed(2)} MB on average.`);

  // 1. First resize: fetch through the guard, hash, keep the original, resize, encode, write.
  const first = async (w: 768 | 1600, offset: number) => {
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const src = `${base}/${offset + i}.jpg`;
      const t0 = performance.now();
      const a = await servePhoto(new URL(photoAddress(BENCH_TENANT, src, w, null), "http://x").pathname, { accept: WEBP });
      times.push(performance.now() - t0);
      if (a.headers["content-type"] !== "image/webp") throw new Error(`no variant: ${JSON.stringify(a.headers)}`);
    }
    return percentiles(times);
  };
  // A warm-up so libvips and the code are loaded (a server's first photo pays that once).
  await servePhoto(new URL(photoAddress(BENCH_TENANT, `${base}/11.jpg`, 320, null), "http://x").pathname, { accept: WEBP });
  const r768 = await first(768, 0);
  const r1600 = await first(1600, 6);
  console.log(`First resize of a source, 768 px WebP: p50 ${r768.p50.toFixed(0)} ms, max ${r768.p99.toFixed(0)} ms (target ≤ 400 ms)`);
  console.log(`First resize of a source, 1600 px WebP: p50 ${r1600.p50.toFixed(0)} ms, max ${r1600.p99.toFixed(0)} ms`);
  // A second width of a known source: made from the kept original, no fetch.
  const t0 = performance.now();
  await servePhoto(new URL(photoAddress(BENCH_TENANT, `${base}/0.jpg`, 480, knownSource(`${base}/0.jpg`)!.hash), "http://x").pathname, { accept: WEBP });
  console.log(`Another width of a source already seen (from the kept original): ${(performance.now() - t0).toFixed(0)} ms`);

  // 2. Cached variants through the lane, as the server answers them (keep-alive clients).
  const lane = http.createServer((req, res) => {
    if (!photoLane(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((ok) => lane.listen(0, "127.0.0.1", ok));
  const laneBase = `http://127.0.0.1:${(lane.address() as AddressInfo).port}`;
  const urls = [0, 1, 2, 3].map((i) => `${laneBase}${photoAddress(BENCH_TENANT, `${base}/${i}.jpg`, 768, knownSource(`${base}/${i}.jpg`)!.hash)}`);
  const client = loadClient(16);
  const r = await client.hammer(
    20_000,
    (i) => client.send(urls[Math.abs(i) % urls.length], { headers: { accept: WEBP } }),
    (s) => s === 200,
    100,
  );
  console.log(
    `Cached variant (768 px WebP) through the lane, 16 clients: ${r.rps.toFixed(0)} a second, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, ${r.failures} failures (target ≥ 1,000/s)`,
  );
  lane.close();
  origin.close();

  // 3. The listing page's LCP photo on a running demo.
  const site = process.env.SITE_URL?.replace(/\/$/, "");
  if (site) await lcpBytes(site);
  fs.rmSync(cache, { recursive: true, force: true });
  process.exit(0);
}

/** GET with the site's Host (Node does not resolve `*.localhost`). */
function get(url: string, accept = "text/html"): Promise<{ status: number; body: Buffer; type: string }> {
  const u = new URL(url);
  const local = u.hostname.endsWith(".localhost");
  return new Promise((resolve, reject) => {
    http
      .get({ host: local ? "localhost" : u.hostname, port: u.port || 80, path: u.pathname + u.search, headers: { host: u.host, accept } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), type: String(res.headers["content-type"]) }));
      })
      .on("error", reject);
  });
}

async function lcpBytes(site: string) {
  const catalogue = (await get(`${site}/imoveis`)).body.toString();
  const listing = catalogue.match(/href="(\/imovel\/[^"]+)"/)?.[1];
  if (!listing) throw new Error(`no listing found on ${site}/imoveis`);
  const html = (await get(site + listing)).body.toString();
  const img = html.match(/<img [^>]*fetchPriority="high"[^>]*>/i)?.[0];
  const srcset = img?.match(/srcSet="([^"]+)"/i)?.[1]?.replace(/&amp;/g, "&");
  if (!srcset) throw new Error(`no prioritised photo with a srcset on ${site}${listing}`);
  // What Lighthouse's mobile phone picks: the first width ≥ its slot (412 − 32 px) × 1.75.
  const need = (412 - 32) * 1.75;
  const candidates = srcset.split(", ").map((c) => ({ url: c.split(" ")[0], w: Number(c.split(" ")[1].replace("w", "")) }));
  const pick = candidates.find((c) => c.w >= need) ?? candidates[candidates.length - 1];
  const first = await get(site + pick.url, WEBP);
  const desktop = candidates.find((c) => c.w >= 760 * 2) ?? candidates[candidates.length - 1];
  const big = await get(site + desktop.url, WEBP);
  console.log(
    `LCP photo of ${listing}: ${pick.w} px ${first.type}, ${(first.body.length / 1024).toFixed(1)} KB on a phone (target ≤ 120 KB); ${desktop.w} px ${(big.body.length / 1024).toFixed(1)} KB on a 2× desktop`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
