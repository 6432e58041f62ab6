import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound, permanentRedirect } from "next/navigation";
import { getTranslations } from "@/app/site-render/_site/translations";
import { cache } from "react";
import { loadSiteView, orNull, type SiteView } from "@/app/site-render/_site/context";
import { pageMetadata } from "@/app/site-render/_site/metadata";
import { href, listingPath, queryString } from "@/app/site-render/_site/links";
import { ListingGrid } from "@/app/site-render/_site/components/listing-grid";
import { Breadcrumb } from "@/app/site-render/_site/components/breadcrumb";
import { BrokerCard } from "@/app/_ui/broker-card";
import { LeadForm } from "@/app/site-render/_site/components/lead-form";
import { VisitBooking, type VisitBookingLabels } from "@/app/site-render/_site/components/visit-booking";
import { FinancingSimulator } from "@/app/_ui/financing";
import { KeyFacts } from "@/app/_ui/key-facts";
import { FavouriteButton } from "@/app/_ui/favourites/favourite-button";
import { VisitorSignal } from "@/app/_ui/favourites/visitor-signals";
import { LocationMap } from "@/app/_ui/location-map";
import { translator } from "@/lib/i18n/translator";
import { addressLine, placeLine } from "@/lib/listings/view/address-line";
import { brokerCard } from "@/lib/listings/view/broker-card";
import { featureLabels } from "@/lib/listings/view/feature-labels";
import { num, str } from "@/lib/listings/view/doc-fields";
import { keyFacts } from "@/lib/listings/view/key-facts";
import { fallbackLang, localized } from "@/lib/listings/view/localized-text";
import { mapPoint } from "@/lib/listings/view/map-point";
import { mediaLinks } from "@/lib/listings/view/media-links";
import { listingPhotos } from "@/lib/listings/view/photos";
import { previewPhoto } from "@/lib/listings/view/responsive-photo";
import { ListingGallery } from "@/app/site-render/_site/components/listing-gallery";
import { businessText, priceText } from "@/lib/listings/view/price-text";
import { typeLabel } from "@/lib/listings/view/type-label";
import { JsonLd } from "@/app/site-render/_site/components/json-ld";
import { MetaPixelEvent } from "@/app/site-render/_site/components/meta-pixel";
import { Paragraphs } from "@/app/_ui/rich-text";
import { findPropertyDetail, type FoundDetail } from "@/lib/sites/property-detail";
import { LOOKUP_HEADER, takeOver } from "@/lib/sites/render/lookup-handoff";
import { listingLookupKey } from "@/lib/sites/render/page-check";
import { decodeSegment } from "@/lib/sites/render/host-routing";
import { recordSiteView } from "@/lib/share/record-access";
import { noteListingView, RENDER_NOTE_HEADER } from "@/lib/page-cache/render-notes";
import { brokerOfHit } from "@/lib/sites/brokers";
import { similarToHit, toListingCard } from "@/lib/sites/similar";
import { slugify } from "@/lib/sites/locations";

type Params = { site: string; locale: string; code: string; slug?: string[] };
type Props = { params: Promise<Params>; searchParams: Promise<Record<string, string | string[] | undefined>> };
type Doc = Record<string, unknown>;

/**
 * The listing as the public API serves it: the allow-listed detail document. Found here without
 * counting a view: metadata and page both read it, and only the rendered page counts (once).
 */
const found = cache(async (site: SiteView, code: string): Promise<FoundDetail | null> => {
  const ref = decodeSegment(code);
  // The proxy looked it up already to answer a missing listing with a server-rendered 404 (page-check.ts).
  const handed = takeOver<FoundDetail | null>((await headers()).get(LOOKUP_HEADER), listingLookupKey(site.row.id, ref));
  return handed ?? orNull(findPropertyDetail(site.db, site.row, ref));
});
const detail = async (site: SiteView, code: string) => (await found(site, code))?.doc ?? null;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { site: s, locale, code } = await params;
  const site = await loadSiteView(s, locale);
  const doc = await detail(site, code);
  if (!doc) return {};
  const title = localized(doc, "title", site.locale);
  const desc = localized(doc, "description", site.locale).replace(/\s+/g, " ").trim();
  return pageMetadata(site, {
    title: `${title} | ${site.name}`,
    description: `${priceText(doc, site.locale, translator(site.locale))} · ${placeLine(doc)}. ${desc}`.slice(0, 300),
    path: listingPath(doc),
    image: str(doc.primaryImageUrl) ? previewPhoto(site.row.tenantId, str(doc.primaryImageUrl), site.origin) : null,
    type: "article",
  });
}

/** A listing's page: gallery, key facts, description, map, broker, simulator, lead form, similar listings. */
export default async function ListingPage({ params, searchParams }: Props) {
  const { site: s, locale, code, slug = [] } = await params;
  const site = await loadSiteView(s, locale);
  const doc = await detail(site, code);
  if (!doc) notFound();
  const query = await searchParams;
  const canonical = listingPath(doc);
  // One address per listing: the code in another case, a stale slug or none go to the canonical one.
  if (`/imovel/${code}${slug.length ? `/${slug.join("/")}` : ""}` !== canonical) {
    const keep = Object.fromEntries(Object.entries(query).filter(([, v]) => typeof v === "string")) as Record<string, string>;
    permanentRedirect(href(site, canonical) + queryString(keep));
  }
  // A view of the seller report: the page at its canonical address, not the redirect, the metadata
  // or a broker's preview of an unpublished site.
  const { listingId, hit, catalogue } = (await found(site, code))!;
  if (listingId && !site.preview) {
    recordSiteView(site.db, site.row.tenantId, listingId);
    // Served later from the page cache, the page counts its view there.
    noteListingView((await headers()).get(RENDER_NOTE_HEADER), { tenantId: site.row.tenantId, listingId });
  }
  const t = await getTranslations("listing");
  const ts = await getTranslations("search");
  const tv = await getTranslations("visit");
  const tr = translator(site.locale);
  const id = String(doc.id);
  // The listing found once serves the broker card and the similar listings (no second lookup).
  const [broker, similar] = hit ? await Promise.all([brokerOfHit(site.db, site.row, hit), similarToHit(site.db, site.row, hit, 3, catalogue)]) : [null, []];
  const title = localized(doc, "title", site.locale);
  const description = localized(doc, "description", site.locale);
  const price = num(doc.price);
  const images = listingPhotos(doc).map((p) => p.src);
  const point = mapPoint(doc);
  const place = addressLine(doc);
  const outcome = typeof query.lead === "string" ? query.lead : undefined;
  const kind = typeLabel(doc.propertyType, site.locale, tr, site.config.tenantConfig.propertyTypes);
  const features = featureLabels(doc, site.config.tenantConfig.propertyFeatures);
  const media = mediaLinks(doc);
  const crumbs = [
    { name: ts("catalogueTitle"), path: "/imoveis" },
    ...(str(doc.location_state) && str(doc.location_city)
      ? [{ name: str(doc.location_city), path: `/imoveis/${slugify(str(doc.location_state))}/${slugify(str(doc.location_city))}` }]
      : []),
    { name: title, path: canonical },
  ];
  // The public card's fields (its allow-list and price masking), plus the translated titles.
  const similarDocs: Doc[] = similar
    .map((d) => ({ d, c: toListingCard(d) }))
    .map(({ d, c }) => ({
      title_en: str(d.title_en),
      title_es: str(d.title_es),
      id: c.id,
      listingCode: c.listingCode,
      title: c.title,
      listingType: c.businessType,
      price: c.price,
      primaryImageUrl: c.coverImage?.src ?? null,
      location_neighborhood: c.location.neighborhood,
      location_city: c.location.city,
      bedrooms: c.property.bedrooms,
      bathrooms: c.property.bathrooms,
      parkingSpots: c.property.parkingSpaces,
      totalArea: c.property.totalArea,
    }));
  const url = `${site.origin}${href(site, canonical)}`;
  return (
    // The tenant's own listing: a chat opened on this page says which listing it started on.
    <div className="wrap" data-listing-id={listingId ?? undefined}>
      <Breadcrumb site={site} crumbs={crumbs} />
      {listingId && <VisitorSignal viewed={listingId} />}
      <div className="listing-head">
        <div>
          <p className="muted" style={{ margin: 0 }}>
            {kind} · {businessText(doc, tr)} · {t("code", { code: str(doc.listingCode) })}
          </p>
          <h1 lang={fallbackLang(doc, "title", site.locale)}>{title}</h1>
          <p className="muted" style={{ margin: 0 }}>
            {place}
          </p>
        </div>
        <div style={{ display: "flex", alignItems: "center", gap: 12 }}>
          <p className="price">{priceText(doc, site.locale, tr)}</p>
          {/* Only the tenant's own listings: a partner's cannot be kept on this site's list. */}
          {listingId && <FavouriteButton id={listingId} label={tr("favourites.save", { title })} className="fav inline" />}
        </div>
      </div>
      <ListingGallery tenantId={site.row.tenantId} images={images} t={tr} />
      <div className="listing-body">
        <div>
          <h2>{t("facts")}</h2>
          <KeyFacts facts={keyFacts(doc, site.locale, tr)} />
          {description && (
            <section aria-labelledby="desc-title">
              <h2 id="desc-title">{t("description")}</h2>
              <div className="rich" lang={fallbackLang(doc, "description", site.locale)}>
                <Paragraphs text={description} />
              </div>
            </section>
          )}
          {features.length > 0 && (
            <section aria-labelledby="feat-title">
              <h2 id="feat-title">{t("features")}</h2>
              <ul className="features">
                {features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            </section>
          )}
          {media.length > 0 && (
            <p style={{ display: "flex", gap: 8 }}>
              {media.map((m) => (
                <a key={m.kind} className="btn secondary" href={m.href} rel="noopener noreferrer">
                  {t(m.kind)}
                </a>
              ))}
            </p>
          )}
          {point && (
            <section aria-labelledby="map-title" style={{ marginTop: 24 }}>
              <h2 id="map-title">{t("location")}</h2>
              <LocationMap point={point} label={place} note={t("mapNote")} t={tr} />
            </section>
          )}
          {doc.listingType === "sale" && price !== null && (
            <div style={{ marginTop: 24 }}>
              <FinancingSimulator price={price} action={href(site, canonical)} query={query} locale={site.locale} t={tr} />
            </div>
          )}
        </div>
        <div className="aside">
          {broker && !("suppressed" in broker) && <BrokerCard broker={brokerCard(broker)} t={tr} />}
          {listingId && hit && !hit.isNetworkListing && (
            <VisitBooking siteId={site.row.id} listingId={listingId} locale={site.locale} labels={visitLabels(tv)} />
          )}
          <LeadForm site={site} path={canonical} outcome={outcome} listing={{ id, code: str(doc.listingCode) }} />
        </div>
      </div>
      {similarDocs.length > 0 && (
        <section className="section" aria-labelledby="similar-title" style={{ paddingTop: 0 }}>
          <h2 id="similar-title">{t("similar")}</h2>
          <ListingGrid site={site} docs={similarDocs} />
        </section>
      )}
      <JsonLd
        data={{
          "@context": "https://schema.org",
          "@type": "RealEstateListing",
          name: title,
          description: description.slice(0, 500),
          url,
          ...(images[0] ? { image: images.slice(0, 5).map((i) => previewPhoto(site.row.tenantId, i, site.origin)) } : {}),
          ...(doc.publishedAt ? {} : {}),
          offers: {
            "@type": "Offer",
            url,
            priceCurrency: "BRL",
            ...(price !== null ? { price } : {}),
            businessFunction: doc.listingType === "rental" ? "http://purl.org/goodrelations/v1#LeaseOut" : "http://purl.org/goodrelations/v1#Sell",
            availability: "https://schema.org/InStock",
            seller: { "@type": "RealEstateAgent", name: site.name },
          },
          ...(str(doc.location_city)
            ? {
                contentLocation: {
                  "@type": "Place",
                  address: { "@type": "PostalAddress", addressLocality: str(doc.location_city), addressRegion: str(doc.location_state), addressCountry: "BR" },
                },
              }
            : {}),
        }}
      />
      <MetaPixelEvent
        site={site}
        event="viewContent"
        data={{ content_ids: [str(doc.listingCode)], content_type: "home_listing", ...(price !== null ? { value: price, currency: "BRL" } : {}) }}
      />
    </div>
  );
}

const VISIT_KEYS = [
  "title",
  "intro",
  "loading",
  "none",
  "chooseTime",
  "day",
  "name",
  "phone",
  "email",
  "note",
  "consent",
  "book",
  "booking",
  "taken",
  "invalid",
  "limited",
  "failed",
] as const;

/** The booking island's texts in the page's language; `{when}`, `{zone}` and `{city}` are left for the island to fill. */
function visitLabels(t: Awaited<ReturnType<typeof getTranslations<"visit">>>): VisitBookingLabels {
  const out = Object.fromEntries(VISIT_KEYS.map((k) => [k, t(k)])) as Omit<VisitBookingLabels, "booked" | "zone">;
  return { ...out, booked: t("booked", { when: "{when}" }), zone: t("zone", { zone: "{zone}", city: "{city}" }) };
}
