import { BrokerCard } from "@/app/_ui/broker-card";
import { ListingCard } from "@/app/_ui/listing-card";
import { brokerCard } from "@/lib/listings/view/broker-card";
import { arr, obj, str } from "@/lib/listings/view/doc-fields";
import { listingCardView } from "@/lib/listings/view/listing-card";
import { agentOf, listingHref, pageLink, whatsappText, type ShareView } from "./share-view";

/** A shortlist: its name and note, a card per listing (each opens inside the shortlist), the broker. */
export function ShortlistView({ view }: { view: ShareView }) {
  const { t, locale } = view;
  const e = view.answer.entity;
  const sl = obj(e.shortlist);
  const docs = arr(e.listings).map(obj);
  const agent = agentOf(e);
  const name = str(sl.name);
  return (
    <>
      <div className="pad">
        <h1 className="title">{name}</h1>
        {str(sl.description) && <p className="lead">{str(sl.description)}</p>}
        <p className="muted">{t("share.shortlistCount", { count: docs.length })}</p>
      </div>
      <ul className="cards">
        {docs.map((d, i) => (
          <li key={str(d.id)}>
            <ListingCard
              tenantId={view.answer.tenantId}
              card={listingCardView(d, locale, t, view.answer.tenantConfig?.propertyTypes)}
              href={pageLink(view, listingHref(view.base, str(d.id)))}
              eager={i === 0}
              priority={i === 0}
              headingLevel={2}
            />
          </li>
        ))}
      </ul>
      {agent && (
        <div className="pad block">
          <BrokerCard broker={brokerCard(agent, whatsappText(t, name))} t={t} />
        </div>
      )}
    </>
  );
}
