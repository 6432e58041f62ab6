import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "@/app/site-render/_site/translations";
import { cache } from "react";
import { loadSiteView, orNull, type SiteView } from "@/app/site-render/_site/context";
import { pageMetadata } from "@/app/site-render/_site/metadata";
import { href } from "@/app/site-render/_site/links";
import { formatMoney, formatNumber } from "@/lib/i18n/format";
import { num } from "@/lib/listings/view/doc-fields";
import { Breadcrumb } from "@/app/site-render/_site/components/breadcrumb";
import { LeadForm } from "@/app/site-render/_site/components/lead-form";
import { Paragraphs } from "@/app/_ui/rich-text";
import { siteBuilding, siteTypology, siteTypologies, siteTypologyListings } from "@/lib/sites/developments";

type Props = { params: Promise<{ site: string; locale: string; buildingId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** A development, only where the tenant shows development flows (`primaryMarketEnabled`). */
const load = cache(async (site: SiteView, buildingId: string) => {
  if (!site.config.tenantConfig.primaryMarketEnabled) return null;
  const b = await orNull(siteBuilding(site.db, site.row, buildingId));
  if (!b) return null;
  const { typologies } = await siteTypologies(site.db, site.row, { buildingId: b.building.id });
  const detailed = await Promise.all(
    typologies.map(async (t) => ({
      ...(await siteTypology(site.db, site.row, t.id, { includeUnits: "true" })).typology,
      listings: (await siteTypologyListings(site.db, site.row, t.id)).listings,
    })),
  );
  return { building: b.building, typologies: detailed };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { site: s, locale, buildingId } = await params;
  const site = await loadSiteView(s, locale);
  const d = await load(site, buildingId);
  if (!d) return {};
  return pageMetadata(site, {
    title: `${d.building.name} | ${site.name}`,
    description: (d.building.description ?? d.building.name).slice(0, 300),
    path: `/empreendimento/${d.building.id}`,
  });
}

/** The building, its typologies (floor plans) with unit availability, and each typology's listings. */
export default async function DevelopmentPage({ params, searchParams }: Props) {
  const { site: s, locale, buildingId } = await params;
  const site = await loadSiteView(s, locale);
  const d = await load(site, buildingId);
  if (!d) notFound();
  const t = await getTranslations("development");
  const tl = await getTranslations("listing");
  const q = await searchParams;
  const path = `/empreendimento/${d.building.id}`;
  const statuses = ["available", "reserved", "sold", "unavailable", "total"] as const;
  return (
    <div className="wrap">
      <Breadcrumb site={site} crumbs={[{ name: d.building.name, path }]} />
      <div className="listing-head">
        <div>
          <p className="muted" style={{ margin: 0 }}>
            {t("title")}
            {d.building.developer ? ` · ${d.building.developer}` : ""}
          </p>
          <h1>{d.building.name}</h1>
          {d.building.openingDate && (
            <p className="muted" style={{ margin: 0 }}>
              {tl("delivery", { date: String(d.building.openingDate) })}
            </p>
          )}
        </div>
      </div>
      <div className="listing-body">
        <div>
          {d.building.description && (
            <div className="rich">
              <Paragraphs text={d.building.description} />
            </div>
          )}
          <h2>{t("typologies")}</h2>
          {d.typologies.map((ty) => (
            <section key={ty.id} className="box" style={{ marginBottom: 20 }} aria-labelledby={`ty-${ty.id}`}>
              <h3 id={`ty-${ty.id}`}>{ty.name}</h3>
              <ul className="facts">
                {num(ty.privateArea) !== null && <li>{tl("area", { area: formatNumber(site.locale, num(ty.privateArea)!) })}</li>}
                {ty.bedrooms ? <li>{tl("bedrooms", { count: ty.bedrooms })}</li> : null}
                {ty.suites ? <li>{tl("suites", { count: ty.suites })}</li> : null}
                {ty.parkingSpaces ? <li>{tl("parking", { count: ty.parkingSpaces })}</li> : null}
              </ul>
              {num(ty.basePrice) !== null && (
                <p className="price" style={{ margin: "8px 0" }}>
                  {t("from", { price: formatMoney(site.locale, num(ty.basePrice)!) })}
                </p>
              )}
              <table className="units">
                <caption className="sr-only">
                  {t("units")} — {ty.name}
                </caption>
                {/* One row per status: five counts side by side broke their headers mid-word on phones. */}
                <tbody>
                  {statuses.map((k) => (
                    <tr key={k}>
                      <th scope="row">{t(k)}</th>
                      <td>{"unitStats" in ty ? ty.unitStats[k] : 0}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {ty.listings.length > 0 && (
                <p style={{ margin: "10px 0 0" }}>
                  {t("listings")}:{" "}
                  {ty.listings.map((l, i) => (
                    <span key={l.id}>
                      {i > 0 && ", "}
                      <a href={href(site, `/imovel/${encodeURIComponent(l.listingCode)}`)}>{l.listingCode}</a>
                    </span>
                  ))}
                </p>
              )}
            </section>
          ))}
        </div>
        <div className="aside">
          <LeadForm site={site} path={path} outcome={typeof q.lead === "string" ? q.lead : undefined} />
        </div>
      </div>
    </div>
  );
}
