import { translator } from "@/lib/i18n/translator";
import { listingCardView } from "@/lib/listings/view/listing-card";
import type { Doc } from "@/lib/listings/view/doc-fields";
import type { SiteView } from "../context";
import { href, listingPath } from "../links";
import { ListingCard } from "@/app/_ui/listing-card";

/** A site's grid of listing cards, each linking to its listing page in the page's language. */
export function ListingGrid({ site, docs, eagerFirst = 0 }: { site: SiteView; docs: Doc[]; eagerFirst?: number }) {
  const t = translator(site.locale);
  const types = site.config.tenantConfig.propertyTypes;
  return (
    <ul className="grid">
      {docs.map((d, i) => {
        const card = listingCardView(d, site.locale, t, types);
        return (
          <li key={String(d.id)}>
            <ListingCard
              tenantId={site.row.tenantId}
              card={card}
              favourite={{ id: String(d.id), label: t("favourites.save", { title: card.title }) }}
              href={href(site, listingPath(d))}
              eager={i < eagerFirst}
              priority={i === 0 && eagerFirst > 0}
            />
          </li>
        );
      })}
    </ul>
  );
}
