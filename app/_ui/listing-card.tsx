import type { ReactNode } from "react";
import type { ListingCardView } from "@/lib/listings/view/listing-card";

/**
 * A listing in a list: cover photo with its business, title, place, price and key numbers, one
 * link. The same card on a site's grids and in a shared shortlist or itinerary (`children` adds a
 * stop's time and notes). Synchronous, so Next.js and `renderToStaticMarkup` render it alike.
 */
export function ListingCard({
  card,
  href,
  eager = false,
  headingLevel = 3,
  children,
}: {
  card: ListingCardView;
  href: string;
  eager?: boolean;
  headingLevel?: 2 | 3;
  children?: ReactNode;
}) {
  const Title = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="card">
      <a href={href}>
        <div className="card-media">
          {card.cover ? (
            // Photos keep their 3:2 frame (width/height set), so nothing shifts while they load.
            // eslint-disable-next-line @next/next/no-img-element
            <img
              src={card.cover}
              alt=""
              width={600}
              height={400}
              loading={eager ? "eager" : "lazy"}
              decoding="async"
              fetchPriority={eager ? "high" : undefined}
            />
          ) : null}
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
    </article>
  );
}
