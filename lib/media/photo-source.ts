import fs from "node:fs/promises";
import path from "node:path";
import { config } from "../config";
import { outboundRequest } from "../outbound-fetch/outbound-request";
import { isSitePath } from "../util/site-path";
import { DEMO_PHOTO_PATH, demoPhotosDir } from "./media-settings";
import type { Validators } from "./source-index";

/** Why a source gave no photo; the placeholder's header names it. */
export class PhotoSourceError extends Error {
  constructor(
    readonly reason: "refused" | "too_large" | "timeout" | "unreachable" | "not_an_image" | "missing",
    message: string,
  ) {
    super(message);
  }
}

const RASTER = /\.(jpe?g|png|webp|avif|gif)$/i;

/** Whether the service resizes this source: a remote address, or a raster file of its own (the demo's photographs, `public/`). SVG stays as it is. */
export function isResizable(src: string): boolean {
  if (/^https?:\/\//i.test(src)) return true;
  return isSitePath(src) && RASTER.test(src.split(/[?#]/)[0]);
}

/** The file a site path names, kept inside its folder; null for any other path. */
function localFile(src: string): string | null {
  const p = decodeURIComponent(src.split(/[?#]/)[0]);
  if (p.startsWith(DEMO_PHOTO_PATH)) {
    const name = p.slice(DEMO_PHOTO_PATH.length);
    return /^[a-z0-9-]{1,80}\.jpg$/.test(name) ? path.join(demoPhotosDir(), name) : null;
  }
  const root = path.join(process.cwd(), "public");
  const file = path.normalize(path.join(root, p));
  return file.startsWith(root + path.sep) && RASTER.test(file) ? file : null;
}

/**
 * The source's bytes. A remote one goes through the outbound guard: no private address (unless
 * allowed), no redirect, capped in size and time; the answer must say it is an image.
 */
export type LoadedSource = { bytes: Buffer; validators: Validators } | { notModified: true; validators: Validators };

const header = (v: string | string[] | undefined) => [v].flat()[0] || undefined;

export async function loadPhotoSource(src: string, known: Validators = {}): Promise<LoadedSource> {
  const max = config().MEDIA_SOURCE_MAX_BYTES;
  if (!/^https?:\/\//i.test(src)) {
    const file = isResizable(src) ? localFile(src) : null;
    if (!file) throw new PhotoSourceError("missing", "not a photo of this service");
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) throw new PhotoSourceError("missing", "no such photo");
    if (stat.size > max) throw new PhotoSourceError("too_large", `larger than ${max} bytes`);
    return { bytes: await fs.readFile(file), validators: {} };
  }
  let res: Awaited<ReturnType<typeof outboundRequest>>;
  try {
    res = await outboundRequest(src, {
      purpose: "image",
      // Asked again after a while (photo-variant.ts): an unchanged photo answers 304 without its bytes.
      headers: {
        accept: "image/avif,image/webp,image/jpeg,image/png,image/*;q=0.8",
        ...(known.etag ? { "if-none-match": known.etag } : {}),
        ...(known.lastModified ? { "if-modified-since": known.lastModified } : {}),
      },
      timeoutMs: config().MEDIA_SOURCE_TIMEOUT_MS,
      maxBytes: max,
      maxRedirects: 0,
    });
  } catch (err) {
    const e = err as { kind?: string; message?: string };
    const reason =
      e.kind === "refused" || e.kind === "invalid_url" ? "refused" : e.kind === "too_large" ? "too_large" : e.kind === "timeout" ? "timeout" : "unreachable";
    throw new PhotoSourceError(reason, e.message ?? "fetch failed");
  }
  const validators = { etag: header(res.headers.etag), lastModified: header(res.headers["last-modified"]) };
  if (res.status === 304 && (known.etag || known.lastModified)) return { notModified: true, validators: { ...known, ...validators } };
  if (res.status < 200 || res.status >= 300) throw new PhotoSourceError("unreachable", `the source answered ${res.status}`);
  const type = [res.headers["content-type"]].flat()[0] ?? "";
  if (!/^image\//i.test(type) && !/^application\/octet-stream/i.test(type))
    throw new PhotoSourceError("not_an_image", `the source answered ${type || "no type"}`);
  return { bytes: res.body, validators };
}
