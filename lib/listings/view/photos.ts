import { safeImageUrl } from "../../util/safe-url";
import { arr, num, obj, str, type Doc } from "./doc-fields";

export type Photo = { src: string; alt: string };

/**
 * A listing's photos, cover first: from a share resolve's `medias` (primary first, then by
 * order) when given, else the document's `primaryImageUrl` and `imageUrls`. Only addresses an
 * image may load from (`safeImageUrl`).
 */
export function listingPhotos(doc: Doc, medias?: unknown[]): Photo[] {
  const fromMedia = arr(medias)
    .map(obj)
    .filter((m) => (m.type ?? "photo") === "photo" && safeImageUrl(m.src))
    .sort((a, b) => Number(b.isPrimary === true) - Number(a.isPrimary === true) || (num(a.order) ?? 0) - (num(b.order) ?? 0))
    .map((m) => ({ src: str(m.src).trim(), alt: str(m.alt) }));
  if (fromMedia.length) return fromMedia;
  const urls = [doc.primaryImageUrl, ...arr(doc.imageUrls)].map(safeImageUrl).filter((u): u is string => u !== null);
  return [...new Set(urls)].map((src) => ({ src, alt: "" }));
}

/** The cover photo's address, or null. */
export const coverPhoto = (doc: Doc, medias?: unknown[]): string | null => listingPhotos(doc, medias)[0]?.src ?? null;
