import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { config } from "../config";
import { derivedKey } from "../messaging/secret-box";
import { processGlobal } from "../util/process-global";
import { PHOTO_WIDTHS, type PhotoWidth } from "./media-settings";

/**
 * A resized photo's address: `/_media/p/{tenant}/{source}.{signature}/{hash}-{width}`, where
 * `tenant` is the id of the tenant whose page wrote it, `source` the photo's own address
 * (base64url), `signature` an HMAC of both under a server key, and `hash` the first 20 hex digits
 * of the SHA-256 of the source's bytes when the page knew them (`0` when not yet). Only addresses
 * the service itself wrote on a page are served (no open proxy), only on hosts of that tenant
 * (photo-host.ts), and a changed photo gets a new address, so a variant is cached for good by
 * every browser and CDN.
 */
export const PHOTO_PREFIX = "/_media/p/";
const MAX_SOURCE_CHARS = 2048;
const PATH =
  /^\/_media\/p\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([A-Za-z0-9_-]{4,2800})\.([A-Za-z0-9_-]{16})\/([0-9a-f]{20}|0)-(\d{3,4})$/;

const signingKey = () =>
  processGlobal("media-url-key", () => {
    const own = config().MEDIA_URL_SECRET;
    return own ? createHash("sha256").update(`media-url:${own}`).digest() : derivedKey("media-url");
  });

// The tenant is signed with the source: an address cannot be moved to another tenant's hosts.
const sign = (tenantId: string, src: string) => createHmac("sha256", signingKey()).update(`${tenantId}\n${src}`).digest("base64url").slice(0, 16);

/** The content hash as addresses carry it. */
export const contentHash = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex").slice(0, 20);

/** The address of `src` at `width` on a page of tenant `tenantId` (the only tenant whose hosts serve it). */
export function photoAddress(tenantId: string, src: string, width: PhotoWidth, hash: string | null): string {
  const tenant = tenantId.toLowerCase();
  return `${PHOTO_PREFIX}${tenant}/${Buffer.from(src).toString("base64url")}.${sign(tenant, src)}/${hash ?? "0"}-${width}`;
}

export const canSign = (src: string) => src.length <= MAX_SOURCE_CHARS;

export type PhotoRequest = { tenantId: string; src: string; width: PhotoWidth; hash: string | null };

/** The request an address stands for, or null when it is not one the service wrote (bad signature, width or shape). */
export function parsePhotoAddress(pathname: string): PhotoRequest | null {
  const m = PATH.exec(pathname);
  if (!m) return null;
  const [, tenantId, source, signature, hash, w] = m;
  const width = Number(w) as PhotoWidth;
  if (!PHOTO_WIDTHS.includes(width)) return null;
  const src = Buffer.from(source, "base64url").toString("utf8");
  const given = Buffer.from(signature);
  const expected = Buffer.from(sign(tenantId, src));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { tenantId, src, width, hash: hash === "0" ? null : hash };
}
