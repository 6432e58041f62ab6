import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { processGlobal } from "../util/process-global";
import { contentHash } from "./photo-address";
import { loadPhotoSource, PhotoSourceError } from "./photo-source";
import { heightOf, mediaCacheDir, type PhotoFormat, type PhotoWidth } from "./media-settings";
import { knownSource, rememberSource, type SourceEntry, type Validators } from "./source-index";
import { config } from "../config";
import { noteCacheWrite } from "./cache-prune";

/** A decompression bomb stops here: 50 megapixels is past any camera a listing photo comes from. */
const MAX_PIXELS = 50_000_000;
/**
 * WebP at effort 1: measured on the demo's photographs, effort 3 (an earlier choice) took 808 ms at
 * 1,600 px for 351 KB, effort 0–1 about 175 ms for the same size give or take 5 %; mozjpeg was as
 * slow for JPEG, which only crawlers and old browsers get (docs/decisions.md, "Listing photos").
 */
const ENCODE = { webp: { quality: 72, effort: 1 }, jpeg: { quality: 80 } } as const;

export type Variant = { hash: string; file: string };

const variantFile = (hash: string, width: number, format: PhotoFormat) => path.join(mediaCacheDir(), "variants", hash.slice(0, 2), hash, `${width}.${format}`);
const originalFile = (hash: string) => path.join(mediaCacheDir(), "originals", hash.slice(0, 2), hash);
const isRemote = (src: string) => /^https?:\/\//i.test(src);

/** Work under way, shared by whoever asks for the same thing meanwhile: one fetch per source, one resize per variant. */
const inFlight = () => processGlobal("media-in-flight", () => new Map<string, Promise<unknown>>());
function once<T>(key: string, work: () => Promise<T>): Promise<T> {
  const map = inFlight();
  const running = map.get(key) as Promise<T> | undefined;
  if (running) return running;
  const p = work().finally(() => map.delete(key));
  map.set(key, p);
  return p;
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fs.writeFile(tmp, bytes);
  await fs.rename(tmp, file);
  noteCacheWrite(bytes.length);
}

/**
 * The source's bytes and hash: a remote source is fetched once and its original kept beside the
 * variants (a new width later is made from the copy, not a second fetch); a local file is read.
 */
async function sourceBytes(src: string): Promise<{ bytes: Buffer; hash: string }> {
  const known = knownSource(src);
  if (known && isRemote(src)) {
    const copy = await fs.readFile(originalFile(known.hash)).catch(() => null);
    if (copy) return { bytes: copy, hash: known.hash };
  }
  return once(`src:${src}`, async () => {
    const loaded = await loadPhotoSource(src);
    if ("notModified" in loaded) throw new PhotoSourceError("unreachable", "304 to a request without validators");
    return keep(src, loaded.bytes, loaded.validators);
  });
}

async function keep(src: string, bytes: Buffer, validators: Validators): Promise<{ bytes: Buffer; hash: string }> {
  const hash = contentHash(bytes);
  if (isRemote(src)) await writeAtomically(originalFile(hash), bytes);
  rememberSource(src, hash, validators);
  return { bytes, hash };
}

/**
 * Asks a remote source again once what we know of it is older than `MEDIA_SOURCE_REVALIDATE_SECONDS`
 * (a page's render starts it and does not wait): conditionally, so an unchanged photo answers 304
 * and is not downloaded again; a changed one gets its new hash, and the pages rendered after it new
 * addresses. Failures keep what we knew.
 */
export function revalidateIfStale(src: string, known: SourceEntry): void {
  if (!isRemote(src) || Date.now() - known.at < config().MEDIA_SOURCE_REVALIDATE_SECONDS * 1000) return;
  void revalidateSource(src, known).catch(() => {});
}

export function revalidateSource(src: string, known: SourceEntry): Promise<string> {
  return once(`revalidate:${src}`, async () => {
    const loaded = await loadPhotoSource(src, known);
    if ("notModified" in loaded) {
      rememberSource(src, known.hash, loaded.validators);
      return known.hash;
    }
    return (await keep(src, loaded.bytes, loaded.validators)).hash;
  });
}

async function resize(bytes: Buffer, width: PhotoWidth, format: PhotoFormat): Promise<Buffer> {
  try {
    const img = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: "error" })
      .rotate()
      .resize(width, heightOf(width), { fit: "cover", withoutEnlargement: false });
    return await (format === "webp" ? img.webp(ENCODE.webp) : img.jpeg(ENCODE.jpeg)).toBuffer();
  } catch (err) {
    throw new PhotoSourceError("not_an_image", (err as Error).message);
  }
}

/**
 * The variant of `src` at `width` in `format`, from the cache or made now. `hash` (from the
 * address) lets a cached variant be served without reading anything of its source.
 */
export async function photoVariant(src: string, width: PhotoWidth, format: PhotoFormat, hash: string | null): Promise<Variant> {
  if (hash) {
    const file = variantFile(hash, width, format);
    if (await exists(file)) return { hash, file };
  }
  const known = knownSource(src)?.hash;
  if (known && known !== hash) {
    const file = variantFile(known, width, format);
    if (await exists(file)) return { hash: known, file };
  }
  return once(`variant:${src}|${width}|${format}`, async () => {
    const source = await sourceBytes(src);
    const file = variantFile(source.hash, width, format);
    if (!(await exists(file))) await writeAtomically(file, await resize(source.bytes, width, format));
    return { hash: source.hash, file };
  });
}
