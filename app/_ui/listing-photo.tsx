import type { CSSProperties } from "react";
import { PHOTO_LAYOUTS, responsivePhoto, type PhotoLayout } from "@/lib/listings/view/responsive-photo";

/**
 * A listing photo, resized: `srcSet` and `sizes` for its layout (WebP or JPEG, chosen by the
 * photo route from the browser's Accept), width and height set so nothing shifts. The page's
 * first photo is `priority` (eager, fetched first: it is the largest paint); every other one is
 * lazy. The same markup on site pages and in `renderToStaticMarkup` (share pages, previews).
 */
export function ListingPhoto({
  tenantId,
  src,
  alt,
  layout,
  priority = false,
  eager = false,
  className,
  style,
}: {
  /** The tenant whose page shows it: its address is served on that tenant's hosts only. */
  tenantId: string;
  src: string;
  alt: string;
  layout: PhotoLayout;
  priority?: boolean;
  eager?: boolean;
  className?: string;
  style?: CSSProperties;
}) {
  const p = responsivePhoto(tenantId, src, layout);
  return (
    // eslint-disable-next-line @next/next/no-img-element
    <img
      className={className}
      src={p.src}
      srcSet={p.srcSet}
      sizes={p.srcSet ? PHOTO_LAYOUTS[layout].sizes : undefined}
      alt={alt}
      width={p.width}
      height={p.height}
      loading={priority || eager ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding="async"
      style={style}
    />
  );
}
