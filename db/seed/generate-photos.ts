import fs from "node:fs";
import path from "node:path";
import { SingleBar, Presets } from "cli-progress";
import sharp from "sharp";
import { DEMO_PHOTO_PATH, demoPhotosDir } from "../../lib/media/media-settings";
import { contentHash } from "../../lib/media/photo-address";
import { rememberSource } from "../../lib/media/source-index";
import { DEMO_PHOTOGRAPHS, type DemoPhoto } from "./image-catalog";
import { createRng } from "./random";
import { svgDoc } from "./svg/primitives";
import { SCENES } from "./svg/scenes";

const W = 2400;
const H = 1600;
/** Bumped when the drawing changes: photographs of an older version are drawn again. */
const VERSION = 1;
const TEXTURES = 4;

/** Noise from a seeded xorshift: the same bytes on every machine, so the same photographs. */
function noise(n: number, seed: number): Buffer {
  const b = Buffer.allocUnsafe(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    b[i] = s & 255;
  }
  return b;
}

/**
 * A camera's texture: fine grain over blotches a few pixels wide (plaster, fabric, foliage), so
 * the JPEG weighs what a photograph does (1–3 MB) and its resized variants what real ones do,
 * not the few kilobytes of a flat drawing. A few textures, made once, serve every photograph.
 */
async function texture(seed: number): Promise<Buffer> {
  const raw1 = { raw: { width: W, height: H, channels: 1 as const } };
  const mid = await sharp(noise((W / 4) * (H / 4), seed + 1), { raw: { width: W / 4, height: H / 4, channels: 1 } })
    .resize(W, H, { kernel: "cubic" })
    .raw()
    .toBuffer();
  return sharp(noise(W * H, seed), raw1)
    .composite([{ input: mid, ...raw1, blend: "overlay" }])
    .linear(0.55, 58)
    .raw()
    .toBuffer();
}

async function draw(photo: DemoPhoto, index: number, grain: Buffer): Promise<Buffer> {
  const { defs, body } = SCENES[photo.category](createRng(90_000 + index * 7919));
  const svg = Buffer.from(svgDoc(1200, 800, defs, body, photo.alt));
  return sharp(svg, { density: 144 })
    .resize(W, H)
    .composite([{ input: grain, raw: { width: W, height: H, channels: 1 }, blend: "soft-light" }])
    .jpeg({ quality: 90, chromaSubsampling: "4:4:4" })
    .toBuffer();
}

const stampFile = () => path.join(demoPhotosDir(), "VERSION");

/**
 * Draws the demo's photographs into `DEMO_PHOTOS_DIR` (default `<DATA_DIR>/demo-photos`), those
 * missing only: a second seed costs nothing. Each one's content hash goes into the photo cache's
 * source index, so the pages carry final (immutable) photo addresses from the first visit.
 */
export async function ensureDemoPhotos(opts: { quiet?: boolean } = {}): Promise<{ drawn: number; total: number; bytes: number; seconds: number }> {
  const started = Date.now();
  const dir = demoPhotosDir();
  fs.mkdirSync(dir, { recursive: true });
  const stale = fs.existsSync(stampFile()) ? fs.readFileSync(stampFile(), "utf8").trim() !== String(VERSION) : true;
  const todo = DEMO_PHOTOGRAPHS.map((p, i) => ({ p, i })).filter(({ p }) => stale || !fs.existsSync(path.join(dir, p.file)));
  const bar =
    opts.quiet || !todo.length
      ? null
      : new SingleBar({ format: "  Photographs [{bar}] {value}/{total} {eta_formatted} left", hideCursor: true }, Presets.shades_classic);
  bar?.start(todo.length, 0);
  const grains = todo.length ? await Promise.all(Array.from({ length: TEXTURES }, (_, k) => texture(7 + k * 101))) : [];
  // Two at a time: libvips spreads each over the cores, and two keep them busy between stages.
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const { p, i } = todo[next++];
      const jpeg = await draw(p, i, grains[i % TEXTURES]);
      const file = path.join(dir, p.file);
      fs.writeFileSync(`${file}.tmp`, jpeg);
      fs.renameSync(`${file}.tmp`, file);
      bar?.increment();
    }
  };
  await Promise.all([worker(), worker()]);
  bar?.stop();
  fs.writeFileSync(stampFile(), `${VERSION}\n`);
  let bytes = 0;
  for (const p of DEMO_PHOTOGRAPHS) {
    const buf = fs.readFileSync(path.join(dir, p.file));
    bytes += buf.length;
    rememberSource(`${DEMO_PHOTO_PATH}${p.file}`, contentHash(buf));
  }
  return { drawn: todo.length, total: DEMO_PHOTOGRAPHS.length, bytes, seconds: (Date.now() - started) / 1000 };
}

// `npx tsx db/seed/generate-photos.ts`: draw them without seeding.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? "")) {
  const r = await ensureDemoPhotos();
  console.log(`${r.total} photographs (${r.drawn} drawn now), ${(r.bytes / r.total / 1e6).toFixed(2)} MB each on average, in ${r.seconds.toFixed(1)} s.`);
}
