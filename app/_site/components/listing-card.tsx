import { getTranslations } from "@/app/_site/translations";
import type { SiteView } from "../context";
import { fallbackLang, formatMoney, formatNumber, localized, num, str } from "../format";
import { href, listingPath } from "../links";

type Doc = Record<string, unknown>;

/** The price line of a listing: its price, per month for rentals, or "Consulte" when private. */
export async function priceText(site: SiteView, doc: Doc): Promise<string> {
  const t = await getTranslations("listing");
  const price = num(doc.price);
  if (price === null) return t("priceOnRequest");
  const money = formatMoney(site.locale, price);
  return doc.listingType === "rental" ? t("perMonth", { price: money }) : money;
}

export async function typeLabel(site: SiteView, id: unknown): Promise<string> {
  const t = await getTranslations("propertyType");
  const key = str(id);
  if (key && t.has(key as never)) return t(key as never);
  return site.config.tenantConfig.propertyTypes.find((p) => p.id === key)?.label ?? key;
}

/** A listing in a grid: cover photo, business type, title, place, price and key numbers. */
export async function ListingCard({ site, doc, eager = false }: { site: SiteView; doc: Doc; eager?: boolean }) {
  const t = await getTranslations("listing");
  const tb = await getTranslations("business");
  const title = localized(doc, "title", site.locale);
  const place = [str(doc.location_neighborhood), str(doc.location_city)].filter(Boolean).join(", ");
  const beds = num(doc.bedrooms);
  const baths = num(doc.bathrooms);
  const park = num(doc.parkingSpots);
  const area = num(doc.totalArea);
  const cover = str(doc.primaryImageUrl) || (Array.isArray(doc.imageUrls) ? str(doc.imageUrls[0]) : "");
  return (
    <article className="card">
      <a href={href(site, listingPath(doc))}>
        <div className="card-media">
          {cover ? (
            // Photos keep their 3:2 frame (width/height set), so nothing shifts while they load.
            // eslint-disable-next-line @next/next/no-img-element
            <img src={cover} alt="" width={600} height={400} loading={eager ? "eager" : "lazy"} decoding="async" fetchPriority={eager ? "high" : undefined} />
          ) : null}
          <span className="badge">{doc.listingType === "rental" ? tb("rental") : tb("sale")}</span>
        </div>
        <div className="card-body">
          <h3 className="card-title" lang={fallbackLang(doc, "title", site.locale)}>{title}</h3>
          {place && <p className="card-place">{place}</p>}
          <p className="price">{await priceText(site, doc)}</p>
          <ul className="facts">
            {area !== null && <li>{t("area", { area: formatNumber(site.locale, area) })}</li>}
            {beds !== null && beds > 0 && <li>{t("bedrooms", { count: beds })}</li>}
            {baths !== null && baths > 0 && <li>{t("bathrooms", { count: baths })}</li>}
            {park !== null && park > 0 && <li>{t("parking", { count: park })}</li>}
          </ul>
        </div>
      </a>
    </article>
  );
}

export async function ListingGrid({ site, docs, eagerFirst = 0 }: { site: SiteView; docs: Doc[]; eagerFirst?: number }) {
  return (
    <ul className="grid">
      {docs.map((d, i) => (
        <li key={String(d.id)}>
          <ListingCard site={site} doc={d} eager={i < eagerFirst} />
        </li>
      ))}
    </ul>
  );
}
