import { ListingPhoto } from "@/app/_ui/listing-photo";
import type { Translator } from "@/lib/i18n/translator";

/**
 * A listing page's photos: the cover (the page's largest paint, fetched first) beside two more,
 * then the rest as lazy thumbnails. Every one resized to its slot (`ListingPhoto`).
 */
export function ListingGallery({ tenantId, images, t }: { tenantId: string; images: string[]; t: Translator }) {
  if (!images.length) return null;
  return (
    <section aria-label={t("listing.gallery")}>
      <div className="gallery">
        {images.slice(0, 3).map((src, i) => (
          <figure key={src + i}>
            <ListingPhoto
              tenantId={tenantId}
              src={src}
              alt={t("listing.photo", { n: i + 1, total: images.length })}
              layout={i === 0 ? "cover" : "side"}
              priority={i === 0}
            />
          </figure>
        ))}
      </div>
      {images.length > 3 && (
        <div className="gallery-more">
          {images.slice(3).map((src, i) => (
            <ListingPhoto
              key={src + i}
              tenantId={tenantId}
              src={src}
              alt={t("listing.photo", { n: i + 4, total: images.length })}
              layout="thumb"
              style={{ borderRadius: 8 }}
            />
          ))}
        </div>
      )}
    </section>
  );
}
