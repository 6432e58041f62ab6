import type { Metadata } from "next";
import { loadSiteView } from "@/app/site-render/_site/context";
import { pageMetadata } from "@/app/site-render/_site/metadata";
import { href, listingPath, queryString } from "@/app/site-render/_site/links";
import { LeadForm } from "@/app/site-render/_site/components/lead-form";
import { FavouriteButton } from "@/app/_ui/favourites/favourite-button";
import { VisitorSignal } from "@/app/_ui/favourites/visitor-signals";
import { ListingPhoto } from "@/app/_ui/listing-photo";
import { translator } from "@/lib/i18n/translator";
import { compareView } from "@/lib/listings/view/compare-view";
import { compareListings } from "@/lib/sites/compare-listings";

type Props = { params: Promise<{ site: string; locale: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { site: s, locale } = await params;
  const site = await loadSiteView(s, locale);
  const t = translator(site.locale, "favourites");
  // A visitor's own selection: never indexed.
  return pageMetadata(site, { title: `${t("title")} | ${site.name}`, description: t("intro"), path: "/comparar", noindex: true });
}

/**
 * The compare view: up to 4 listings (`?ids=`, the visitor's favourites, sent by the favourites
 * bar) side by side, server-rendered from the public detail documents. A table with a header
 * cell per listing and per figure, so a screen reader reads "Preço por m², Apartamento X".
 */
export default async function ComparePage({ params, searchParams }: Props) {
  const { site: s, locale } = await params;
  const site = await loadSiteView(s, locale);
  const q = await searchParams;
  const t = translator(site.locale);
  const { docs, missing, more } = await compareListings(site.db, site.row, typeof q.ids === "string" ? q.ids : undefined);
  const { columns, rows } = compareView(docs, site.locale, t, site.config.tenantConfig.propertyTypes);
  const path = `/comparar${queryString({ ids: columns.map((c) => c.id).join(",") })}`;
  return (
    <div className="wrap section">
      {columns.length > 0 && <VisitorSignal compared={columns.map((c) => c.id).join(",")} />}
      <h1>{t("favourites.title")}</h1>
      <p className="muted">{t("favourites.intro")}</p>
      {(missing > 0 || more) && (
        <p className="notice" role="status">
          {missing > 0 ? t("favourites.missing", { count: missing }) : ""} {more ? t("favourites.first4") : ""}
        </p>
      )}
      {columns.length === 0 ? (
        <p className="empty">{t("favourites.empty")}</p>
      ) : (
        <div className="compare-scroll">
          <table className="compare">
            <caption className="sr-only">{t("favourites.title")}</caption>
            <thead>
              <tr>
                <td />
                {columns.map((c, i) => (
                  <th key={c.id} scope="col" id={`col-${i}`}>
                    {c.cover ? <ListingPhoto tenantId={site.row.tenantId} src={c.cover} alt="" layout="card" eager={i < 2} /> : null}
                    <a href={href(site, listingPath(c.doc))} lang={c.titleLang}>
                      {c.title}
                    </a>
                    <FavouriteButton id={c.id} label={t("favourites.save", { title: c.title })} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{r.label}</th>
                  {r.cells.map((v, i) => (
                    <td key={columns[i].id} className={r.best === i ? "best" : undefined}>
                      {v}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {columns.length > 0 && (
        <div style={{ maxWidth: 680 }}>
          <LeadForm
            site={site}
            path={path}
            outcome={typeof q.lead === "string" ? q.lead : undefined}
            title={t("favourites.interest")}
            message={t("favourites.interestMessage", { codes: columns.map((c) => c.code).join(", ") })}
          />
        </div>
      )}
    </div>
  );
}
