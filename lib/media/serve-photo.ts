import fs from "node:fs/promises";
import { LRUCache } from "lru-cache";
import { logger } from "../log/logger";
import { processGlobal } from "../util/process-global";
import { parsePhotoAddress } from "./photo-address";
import { hostServesTenantPhotos } from "./photo-host";
import { PhotoSourceError } from "./photo-source";
import { photoVariant } from "./photo-variant";
import { noteCacheUse } from "./cache-prune";
import type { PhotoFormat } from "./media-settings";
import { placeholderSvg } from "./placeholder";

export type PhotoAnswer = { status: number; headers: Record<string, string>; body: Buffer };

const IMMUTABLE = "public, max-age=31536000, immutable";
const TYPES: Record<PhotoFormat, string> = { webp: "image/webp", jpeg: "image/jpeg" };

/** Hot variants in memory (a listing's cover is asked for by every visitor): no disk read per request. */
const hot = () =>
  processGlobal("media-hot-variants", () => new LRUCache<string, Buffer>({ max: 5000, maxSize: 64 * 1024 * 1024, sizeCalculation: (b) => b.length || 1 }));

/** WebP for every browser that says it takes it (all current ones); JPEG for the rest, link-preview crawlers included. */
export const formatFor = (accept: string | undefined): PhotoFormat => (accept && /image\/webp/i.test(accept) ? "webp" : "jpeg");

const notFound = (): PhotoAnswer => ({
  status: 404,
  headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  body: Buffer.from("Not a photo address of this service.\n"),
});

/**
 * The answer to `GET /_media/p/...`: the resized photo, from the cache or made now; a placeholder
 * (200, short cache, `x-photo-placeholder` says why) when its source cannot give one, so a page
 * never waits on a 500; 404 for an address the service did not write, or asked on a host that
 * does not serve its tenant (another agency's site). No `host`: the service's own.
 */
export async function servePhoto(pathname: string, reqHeaders: { accept?: string; ifNoneMatch?: string; host?: string }): Promise<PhotoAnswer> {
  const req = parsePhotoAddress(pathname);
  if (!req) return notFound();
  if (!(await hostServesTenantPhotos(reqHeaders.host, req.tenantId))) return notFound();
  const format = formatFor(reqHeaders.accept);
  try {
    const v = await photoVariant(req.src, req.width, format, req.hash);
    noteCacheUse(v.file);
    const etag = `"${v.hash}-${req.width}.${format}"`;
    // The address named these bytes: cached for good. An old or hash-less address: briefly, as its bytes may change.
    const cache = req.hash === v.hash ? IMMUTABLE : "public, max-age=300";
    const headers = { "content-type": TYPES[format], "cache-control": cache, vary: "Accept", etag, "x-content-type-options": "nosniff" };
    if (reqHeaders.ifNoneMatch === etag) return { status: 304, headers, body: Buffer.alloc(0) };
    let body = hot().get(v.file);
    if (!body) {
      body = await fs.readFile(v.file);
      hot().set(v.file, body);
    }
    return { status: 200, headers, body };
  } catch (err) {
    const reason = err instanceof PhotoSourceError ? err.reason : "failed";
    if (!(err instanceof PhotoSourceError)) logger().warn({ err, src: req.src.slice(0, 200) }, "photo variant failed");
    return {
      status: 200,
      headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=60", "x-photo-placeholder": reason, "x-content-type-options": "nosniff" },
      body: placeholderSvg(req.width),
    };
  }
}
