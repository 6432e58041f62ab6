import type { ReactNode } from "react";
import type { ListingCardView } from "@/lib/listings/view/listing-card";
import { FavouriteButton } from "./favourites/favourite-button";
import { ListingPhoto } from "./listing-photo";

/**
 * A listing in a list: cover photo with its business, title, place, price and key numbers, one
 * link. The same card on a site's grids and in a shared shortlist or itinerary (`children` adds a
 * stop's time and notes). Synchronous, so Next.js and `renderToStaticMarkup` render it alike.
 */
export function ListingCard({
  tenantId,
  card,
  href,
  eager = false,
  priority = false,
  headingLevel = 3,
  favourite,
  children,
}: {
  tenantId: string;
  card: ListingCardView;
  href: string;
  eager?: boolean;
  /** The page's first photo: fetched before anything else. */
  priority?: boolean;
  headingLevel?: 2 | 3;
  /** A heart on the photo (site pages): outside the link, since a button cannot sit in one. */
  favourite?: { id: string; label: string };
  children?: ReactNode;
}) {
  const Title = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="card">
      <a href={href}>
        <div className="card-media">
          {/* Photos keep their 3:2 frame (width/height set), so nothing shifts while they load. */}
          {card.cover ? <ListingPhoto tenantId={tenantId} src={card.cover} alt="" layout="card" eager={eager} priority={priority} /> : null}
          <span className="badge">{card.business}</span>
        </div>
        <div className="card-body">
          <Title className="card-title" lang={card.titleLang}>
            {card.title}
          </Title>
          {card.place && <p className="card-place">{card.place}</p>}
          <p className="price">{card.price}</p>
          {card.facts.length > 0 && (
            <ul className="facts">
              {card.facts.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          )}
          {children}
        </div>
      </a>
      {favourite && <FavouriteButton id={favourite.id} label={favourite.label} />}
    </article>
  );
}
