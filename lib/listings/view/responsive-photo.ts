import { heightOf, PHOTO_WIDTHS } from "../../media/media-settings";
import { canSign, photoAddress } from "../../media/photo-address";
import { isResizable } from "../../media/photo-source";
import { knownSource } from "../../media/source-index";
import { revalidateIfStale } from "../../media/photo-variant";

/** What an `<img>` of a listing photo carries: a fallback `src`, the widths in `srcSet`, the frame's size. */
export type ResponsivePhoto = { src: string; srcSet?: string; width: number; height: number };

/** Layouts a photo appears in: the `sizes` each one's `srcSet` is chosen by, and the widest it ever needs. */
export const PHOTO_LAYOUTS = {
  cover: { sizes: "(max-width: 900px) calc(100vw - 32px), 760px", max: 1600 },
  side: { sizes: "(max-width: 900px) 50vw, 380px", max: 960 },
  thumb: { sizes: "(max-width: 900px) 33vw, 200px", max: 480 },
  card: { sizes: "(max-width: 600px) calc(100vw - 32px), (max-width: 900px) 50vw, 380px", max: 960 },
} as const;
export type PhotoLayout = keyof typeof PHOTO_LAYOUTS;

/**
 * A listing photo served resized (lib/media): every width up to the layout's widest, addressed
 * with the hash of the source's bytes when the service has seen them, for the tenant whose page
 * shows it (served only on that tenant's hosts). An SVG or any address the service does not
 * resize is kept as it is, in the same 3:2 frame.
 */
export function responsivePhoto(tenantId: string, src: string, layout: PhotoLayout): ResponsivePhoto {
  if (!isResizable(src) || !canSign(src)) return { src, width: 1200, height: 800 };
  const known = knownSource(src);
  if (known) revalidateIfStale(src, known);
  const hash = known?.hash ?? null;
  const widths = PHOTO_WIDTHS.filter((w) => w <= PHOTO_LAYOUTS[layout].max);
  const fallback = widths.includes(768) ? 768 : widths[widths.length - 1];
  return {
    src: photoAddress(tenantId, src, fallback, hash),
    srcSet: widths.map((w) => `${photoAddress(tenantId, src, w, hash)} ${w}w`).join(", "),
    width: fallback,
    height: heightOf(fallback),
  };
}

/** The photo a link preview (`og:image`) shows: one JPEG-compatible address at 1280 wide, absolute. */
export function previewPhoto(tenantId: string, src: string, origin: string): string {
  const url = isResizable(src) && canSign(src) ? photoAddress(tenantId, src, 1280, knownSource(src)?.hash ?? null) : src;
  return /^https?:\/\//i.test(url) ? url : `${origin}${url}`;
}
