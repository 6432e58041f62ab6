import { BrokerCard } from "@/app/_ui/broker-card";
import { FinancingSimulator } from "@/app/_ui/financing";
import { KeyFacts } from "@/app/_ui/key-facts";
import { ListingPhoto } from "@/app/_ui/listing-photo";
import { LocationMap } from "@/app/_ui/location-map";
import { Paragraphs } from "@/app/_ui/rich-text";
import type { Translator } from "@/lib/i18n/translator";
import { addressLine } from "@/lib/listings/view/address-line";
import { brokerCard, type BrokerInput } from "@/lib/listings/view/broker-card";
import { num, str, type Doc } from "@/lib/listings/view/doc-fields";
import { featureLabels } from "@/lib/listings/view/feature-labels";
import { keyFacts } from "@/lib/listings/view/key-facts";
import { fallbackLang, localized } from "@/lib/listings/view/localized-text";
import { mapPoint } from "@/lib/listings/view/map-point";
import { mediaLinks } from "@/lib/listings/view/media-links";
import { listingPhotos, type Photo } from "@/lib/listings/view/photos";
import { businessText, priceText } from "@/lib/listings/view/price-text";
import { typeLabel } from "@/lib/listings/view/type-label";
import { whatsappLink } from "@/lib/listings/view/whatsapp-link";
import { whatsappText, type ShareView } from "./share-view";

/** The cover photo (the page's largest paint: high priority) and the rest in a swipeable strip. */
function Gallery({ tenantId, photos, title, t }: { tenantId: string; photos: Photo[]; title: string; t: Translator }) {
  if (!photos.length) return null;
  const n = photos.length;
  return (
    <section className="gallery" aria-label={t("share.photos")}>
      <ListingPhoto tenantId={tenantId} className="cover" src={photos[0].src} alt={photos[0].alt || title} layout="cover" priority />
      {n > 1 && (
        <ul className="strip">
          {photos.slice(1, 24).map((p, i) => (
            <li key={p.src + i}>
              <ListingPhoto tenantId={tenantId} src={p.src} alt={p.alt || t("share.photo", { n: i + 2, total: n })} layout="side" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The title of a listing on a share page: its own, else its property type. */
export const listingTitle = (view: ShareView, doc: Doc): string =>
  localized(doc, "title", view.locale) || typeLabel(doc.propertyType, view.locale, view.t, view.answer.tenantConfig?.propertyTypes);

/** A listing as the link shows it: gallery, title, place, price, facts, description, features, map, simulator, broker. */
export function ListingView({
  view,
  doc,
  property,
  medias,
  agent,
  action,
  hideTitle = false,
}: {
  view: ShareView;
  doc: Doc;
  property?: Doc;
  medias?: unknown[];
  agent: BrokerInput | null;
  action: string;
  hideTitle?: boolean;
}) {
  const { t, locale } = view;
  const types = view.answer.tenantConfig?.propertyTypes;
  const title = listingTitle(view, doc);
  const description = localized(doc, "description", locale).trim();
  const place = addressLine(doc, property);
  const code = str(doc.listingCode);
  const kind = typeLabel(doc.propertyType ?? property?.type, locale, t, types);
  const features = featureLabels(doc, view.answer.tenantConfig?.propertyFeatures);
  const point = mapPoint(doc, property);
  const price = num(doc.price);
  const media = mediaLinks(doc);
  return (
    <>
      <Gallery tenantId={view.answer.tenantId} photos={listingPhotos(doc, medias)} title={title} t={t} />
      <div className="pad">
        <p className="eyebrow">{[kind, businessText(doc, t), code ? t("share.code", { code }) : ""].filter(Boolean).join(" · ")}</p>
        {!hideTitle && (
          <h1 className="title" lang={fallbackLang(doc, "title", locale)}>
            {title}
          </h1>
        )}
        {place && <p className="place">{place}</p>}
        <p className="price">{priceText(doc, locale, t)}</p>
        <KeyFacts facts={keyFacts(doc, locale, t, property)} />
        {description && (
          <section className="block" aria-labelledby="desc-title" lang={fallbackLang(doc, "description", locale)}>
            <h2 id="desc-title">{t("listing.description")}</h2>
            <Paragraphs text={description} />
          </section>
        )}
        {features.length > 0 && (
          <section className="block" aria-labelledby="feat-title">
            <h2 id="feat-title">{t("listing.features")}</h2>
            <ul className="tags">
              {features.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          </section>
        )}
        {media.length > 0 && (
          <p className="actions">
            {media.map((m) => (
              <a key={m.kind} className="btn secondary" href={m.href} rel="noopener noreferrer">
                {t(`listing.${m.kind}`)}
              </a>
            ))}
          </p>
        )}
        {point && (
          <section className="block" aria-labelledby="map-title">
            <h2 id="map-title">{t("listing.location")}</h2>
            <LocationMap point={point} label={place} note={point.approximate ? t("share.mapApprox") : t("share.mapExact")} t={t} />
          </section>
        )}
        {view.simulator && doc.listingType === "sale" && price !== null && (
          <div className="block">
            <FinancingSimulator price={price} action={action} query={view.query ?? {}} locale={locale} t={t} keep={view.keep} />
          </div>
        )}
        {agent && (
          <div className="block">
            <BrokerCard broker={brokerCard(agent, whatsappText(t, title))} t={t} />
          </div>
        )}
      </div>
    </>
  );
}

/** The phone's thumb bar: one button to message the broker, always in reach. */
export function ContactBar({ t, agent, title }: { t: Translator; agent: BrokerInput | null; title: string }) {
  const wa = agent && whatsappLink(agent.phone, whatsappText(t, title));
  if (!agent || !wa) return null;
  return (
    <aside className="bar" aria-label={t("broker.title")}>
      <a className="btn" href={wa} rel="noopener noreferrer">
        {t("share.contact", { name: agent.name.split(" ")[0] })}
      </a>
    </aside>
  );
}
