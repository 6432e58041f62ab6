import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "@/app/site-render/_site/translations";
import { loadSiteView, type SiteView } from "@/app/site-render/_site/context";
import { pageMetadata } from "@/app/site-render/_site/metadata";
import { href, queryString } from "@/app/site-render/_site/links";
import { ListingGrid } from "@/app/site-render/_site/components/listing-grid";
import { propertyTypeOptions, TypeSelects } from "@/app/site-render/_site/components/search-fields";
import { Breadcrumb } from "@/app/site-render/_site/components/breadcrumb";
import { MetaPixelEvent } from "@/app/site-render/_site/components/meta-pixel";
import { searchSite } from "@/lib/sites/public-search";
import { slugify } from "@/lib/sites/locations";
import { locationPageOf, type Crumb } from "@/lib/sites/render/location-page";
import { isFiltered, parseCatalogue, PER_PAGE, searchBody, stateParams, type CatalogueState } from "@/lib/sites/render/catalogue-query";
import { cache } from "react";
import { CatalogueMap } from "@/app/site-render/_site/components/catalogue-map";
import { config } from "@/lib/config";
import { PRICE_ON_REQUEST } from "@/lib/sites/public-document";
import { filterBy } from "@/lib/sites/render/catalogue-query";
import { SavedSearchForm } from "@/app/site-render/_site/components/saved-search-form";

type Params = { site: string; locale: string; location?: string[] };
type Props = { params: Promise<Params>; searchParams: Promise<Record<string, string | string[] | undefined>> };
/** The location of a location page, validated by the sites' locations logic (invalid: 404). */
const placeOf = cache((site: SiteView, segments: string[]) => locationPageOf(site.db, site.row, segments));

const placeName = (crumbs: Crumb[]) =>
  [...crumbs]
    .reverse()
    .slice(0, 2)
    .map((c) => c.name)
    .join(", ");

const search = cache(async (site: SiteView, segments: string[], raw: string) => {
  const loc = await placeOf(site, segments);
  if (!loc) return null;
  const state = parseCatalogue(Object.fromEntries(new URLSearchParams(raw)));
  const result = await searchSite(site.db, site.row, searchBody(state, loc.place));
  return { ...loc, state, result };
});

const rawQuery = (q: Record<string, string | string[] | undefined>) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (typeof v === "string") u.set(k, v);
  return u.toString();
};

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { site: s, locale, location = [] } = await params;
  const site = await loadSiteView(s, locale);
  const data = await search(site, location, rawQuery(await searchParams));
  if (!data) return {};
  const t = await getTranslations("search");
  const path = `/imoveis${location.length ? `/${location.join("/")}` : ""}`;
  const place = placeName(data.crumbs);
  const count = data.result.found;
  const title = place ? t("locationTitle", { place }) : t("catalogueTitle");
  const description = place ? t("locationDescription", { count, place, site: site.name }) : t("catalogueDescription", { count, site: site.name });
  const pageSuffix = data.state.page > 1 ? ` (${data.state.page})` : "";
  return pageMetadata(site, {
    title: `${title}${pageSuffix} | ${site.name}`,
    description,
    path: `${path}${queryString({ page: data.state.page > 1 ? data.state.page : undefined })}`,
    noindex: isFiltered(data.state),
  });
}

/** The catalogue and the location pages: server-rendered, filters in the URL, facet counts. */
export default async function CataloguePage({ params, searchParams }: Props) {
  const { site: s, locale, location = [] } = await params;
  const site = await loadSiteView(s, locale);
  const data = await search(site, location, rawQuery(await searchParams));
  if (!data) notFound();
  const t = await getTranslations("search");
  const tb = await getTranslations("business");
  const { state, result, crumbs } = data;
  const raw = await searchParams;
  const mapView = state.view === "map";
  // Links that leave the filters (clear, a deeper place) still keep the view.
  const viewOnly = queryString({ view: state.view });
  const base = `/imoveis${location.length ? `/${location.join("/")}` : ""}`;
  const link = (patch: Partial<CatalogueState>) => href(site, base) + queryString(stateParams({ ...state, page: 1, ...patch }));
  const pages = Math.max(1, Math.ceil(Math.min(result.found, 400 * PER_PAGE) / PER_PAGE));
  const facet = (name: string) => result.facet_counts.find((f) => f.field_name === name)?.counts ?? [];
  const place = placeName(crumbs);
  const types = await propertyTypeOptions(site);
  const typeName = new Map(types.map((x) => [x.id, x.label]));
  // Deeper location pages from the facet of the next level (internal links search engines follow).
  const depth = crumbs.length;
  const childFacet = depth === 1 ? "location_city" : depth === 2 ? "location_neighborhood" : null;
  const children = childFacet ? facet(childFacet).filter((c) => slugify(c.value)) : [];
  return (
    <div className="wrap">
      {crumbs.length ? (
        <Breadcrumb site={site} crumbs={[{ name: t("catalogueTitle"), path: "/imoveis" }, ...crumbs.map((c) => ({ name: c.name, path: c.path }))]} />
      ) : null}
      <div className="results-head" style={{ marginTop: 20, marginBottom: 0 }}>
        <div>
          <h1 id="results-title">{place ? t("locationTitle", { place }) : t("catalogueTitle")}</h1>
          <p className="muted" style={{ margin: 0 }}>
            {t("found", { count: result.found })}
          </p>
        </div>
        <a href={href(site, base) + queryString(stateParams({ ...state, view: mapView ? undefined : "map" }))}>{mapView ? t("listView") : t("mapView")}</a>
      </div>
      <div className={mapView ? "catalogue map-mode" : "catalogue"}>
        <aside aria-labelledby="filters-title">
          <form className="filters" method="get" action={href(site, base)}>
            {mapView && <input type="hidden" name="view" value="map" />}
            <h2 id="filters-title" style={{ fontSize: "1.1rem", margin: 0 }}>
              {t("filters")}
            </h2>
            <label>
              {t("keywords")}
              <input type="search" name="q" defaultValue={state.q ?? ""} placeholder={t("placeholder")} />
            </label>
            <TypeSelects types={types} type={state.type} propertyType={state.propertyType} />
            <NumberRange
              fields={[
                ["minPrice", t("minPrice"), state.minPrice],
                ["maxPrice", t("maxPrice"), state.maxPrice],
              ]}
            />
            <label>
              {t("bedrooms")}
              <select name="bedrooms" defaultValue={state.bedrooms ?? ""}>
                <option value="">{t("any")}</option>
                {[1, 2, 3, 4].map((b) => (
                  <option key={b} value={b}>
                    {t("bedroomsAtLeast", { count: b })}
                  </option>
                ))}
              </select>
            </label>
            <NumberRange
              fields={[
                ["minArea", t("minArea"), state.minArea],
                ["maxArea", t("maxArea"), state.maxArea],
              ]}
            />
            {!location.length && (
              <label>
                {t("city")}
                <select name="city" defaultValue={state.city ?? ""}>
                  <option value="">{t("any")}</option>
                  {facet("location_city").map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.value} ({c.count})
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label>
              {t("sort")}
              <select name="sort" defaultValue={state.sort}>
                <option value="newest">{t("sortRelevance")}</option>
                <option value="price_asc">{t("sortPriceAsc")}</option>
                <option value="price_desc">{t("sortPriceDesc")}</option>
                <option value="area_desc">{t("sortAreaDesc")}</option>
              </select>
            </label>
            <button className="btn" type="submit">
              {t("apply")}
            </button>
            {isFiltered(state) && <a href={href(site, base) + viewOnly}>{t("clear")}</a>}
          </form>
          <div className="filters" style={{ marginTop: 16 }}>
            <h2 style={{ fontSize: "1.1rem", margin: 0 }}>{t("refine")}</h2>
            <Facet
              title={t("type")}
              counts={facet("listingType")}
              label={(v) => (v === "rental" ? tb("rental") : tb("sale"))}
              to={(v) => link({ type: v as "sale" | "rental" })}
            />
            <Facet title={t("propertyType")} counts={facet("propertyType")} label={(v) => typeName.get(v) ?? v} to={(v) => link({ propertyType: v })} />
            <Facet
              title={t("bedrooms")}
              counts={atLeast(facet("bedrooms"))}
              label={(v) => t("bedroomsAtLeast", { count: Number(v) })}
              to={(v) => link({ bedrooms: Number(v) })}
            />
            {children.length > 0 ? (
              <Facet title={t("locations")} counts={children} label={(v) => v} to={(v) => href(site, `${base}/${slugify(v)}`) + viewOnly} />
            ) : !location.length ? (
              <Facet title={t("city")} counts={facet("location_city")} label={(v) => v} to={(v) => link({ city: v })} />
            ) : null}
          </div>
          <SavedSearchForm site={site} path={base} state={state} place={data.place} outcome={typeof raw.alerta === "string" ? raw.alerta : undefined} />
        </aside>
        <section aria-labelledby="results-title">
          {mapView ? (
            <MapSection site={site} data={data} typeNames={Object.fromEntries(typeName)} at={typeof raw.at === "string" ? raw.at : undefined} t={t} />
          ) : result.hits.length ? (
            <ListingGrid site={site} docs={result.hits.map((h) => h.document)} eagerFirst={2} />
          ) : (
            <p className="empty">{t("none")}</p>
          )}
          {!mapView && pages > 1 && (
            <nav className="pager" aria-label={t("pagination")}>
              {state.page > 1 && (
                <a href={link({ page: state.page - 1 })} rel="prev">
                  {t("previous")}
                </a>
              )}
              <span>{t("page", { page: state.page, pages })}</span>
              {state.page < pages && (
                <a href={link({ page: state.page + 1 })} rel="next">
                  {t("next")}
                </a>
              )}
            </nav>
          )}
        </section>
      </div>
      <MetaPixelEvent site={site} event="search" data={{ search_string: state.q ?? "", content_category: place || "imoveis" }} />
    </div>
  );
}

/** Bedroom facet as "N or more" (what the filter means), from the exact counts. */
function atLeast(counts: { value: string; count: number }[]) {
  const exact = counts.map((c) => ({ n: Number(c.value), count: c.count })).filter((c) => Number.isInteger(c.n) && c.n > 0);
  return [1, 2, 3, 4].map((n) => ({ value: String(n), count: exact.filter((c) => c.n >= n).reduce((a, c) => a + c.count, 0) })).filter((c) => c.count > 0);
}

/** A range filter: its two numeric inputs side by side, each as [name, label, current value]. */
function NumberRange({ fields }: { fields: [name: string, label: string, value: number | undefined][] }) {
  return (
    <div className="row">
      {fields.map(([name, label, value]) => (
        <label key={name}>
          {label}
          <input name={name} inputMode="numeric" defaultValue={value ?? ""} />
        </label>
      ))}
    </div>
  );
}

function Facet({
  title,
  counts,
  label,
  to,
}: {
  title: string;
  counts: { value: string; count: number }[];
  label: (v: string) => string;
  to: (v: string) => string;
}) {
  if (!counts.length) return null;
  return (
    <div className="facet">
      <h3>{title}</h3>
      <ul>
        {counts.slice(0, 12).map((c) => (
          <li key={c.value}>
            <a href={to(c.value)}>
              <span>{label(c.value)}</span> <span className="n">{c.count}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A view `lat,lng,zoom` from the URL, else the box of the page's listings (or Brazil). */
function initialView(at: string | undefined, docs: Record<string, unknown>[]) {
  const m = /^(-?\d{1,2}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?),(\d{1,2})$/.exec(at ?? "");
  if (m && Math.abs(Number(m[1])) <= 85 && Math.abs(Number(m[2])) <= 180 && Number(m[3]) <= 19)
    return { lat: Number(m[1]), lng: Number(m[2]), zoom: Number(m[3]) };
  const lats = docs.map((d) => d.location_latitude).filter((v): v is number => typeof v === "number");
  const lngs = docs.map((d) => d.location_longitude).filter((v): v is number => typeof v === "number");
  if (!lats.length || !lngs.length) return { lat: -15.78, lng: -47.93, zoom: 4 };
  return { south: Math.min(...lats), north: Math.max(...lats), west: Math.min(...lngs), east: Math.max(...lngs) };
}

/** The map view (`?view=map`): Leaflet's stylesheet and script load only here. */
function MapSection({
  site,
  data,
  typeNames,
  at,
  t,
}: {
  site: SiteView;
  data: NonNullable<Awaited<ReturnType<typeof search>>>;
  typeNames: Record<string, string>;
  at: string | undefined;
  t: Awaited<ReturnType<typeof getTranslations<"search">>>;
}) {
  const c = config();
  return (
    <>
      <link rel="stylesheet" href="/_media/vendor/leaflet-1.9.4.css" precedence="default" />
      <CatalogueMap
        siteId={site.row.id}
        q={data.state.q || "*"}
        filterBy={filterBy(data.state, data.place)}
        tilesUrl={c.MAP_TILES_URL}
        attribution={c.MAP_TILES_ATTRIBUTION}
        at={initialView(
          at,
          data.result.hits.map((h) => h.document),
        )}
        listingHref={href(site, "/imovel/{id}")}
        locale={site.locale}
        typeNames={typeNames}
        labels={{
          map: t("mapLabel"),
          list: t("mapList"),
          cluster: t("mapCluster", { count: 0 }).replace("0", "{count}"),
          zoomIn: t("mapZoomIn"),
          loading: t("mapLoading"),
          empty: t("none"),
          priceOnRequest: PRICE_ON_REQUEST,
        }}
      />
    </>
  );
}
