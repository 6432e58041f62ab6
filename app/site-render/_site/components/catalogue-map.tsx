/**
 * The catalogue's map view (`?view=map`): the map's box and the list beside it, rendered on the
 * server, brought to life by `/catalogue-map.js` (a plain script, as the site's other islands:
 * Leaflet from our own server, the view's clusters and pins from `/api/sites/{siteId}/map`, the
 * list as the keyboard and screen-reader equivalent of the markers, the view kept in the URL).
 * No React on the client, so the page keeps the static site pages' Lighthouse figures.
 */
export type CatalogueMapProps = {
  siteId: string;
  /** The catalogue's filters as the search's `q` and `filter_by`, so the map shows what the list would. */
  q: string;
  filterBy: string;
  tilesUrl: string;
  attribution: string;
  /** The view kept in the URL (`at=lat,lng,zoom`), else the box of the first page's listings. */
  at: { lat: number; lng: number; zoom: number } | { south: number; west: number; north: number; east: number };
  /** Site-relative address of a listing page, `{id}` replaced. */
  listingHref: string;
  locale: string;
  typeNames: Record<string, string>;
  labels: { map: string; list: string; cluster: string; zoomIn: string; loading: string; empty: string; priceOnRequest: string };
};

export function CatalogueMap(p: CatalogueMapProps) {
  const settings = {
    siteId: p.siteId,
    q: p.q,
    filterBy: p.filterBy,
    tiles: p.tilesUrl,
    attribution: p.attribution,
    at: p.at,
    listingHref: p.listingHref,
    locale: p.locale,
    typeNames: p.typeNames,
    labels: p.labels,
  };
  return (
    <div className="map-view" data-catalogue-map={JSON.stringify(settings)}>
      <section className="map-canvas" aria-label={p.labels.map} />
      <section className="map-list" aria-labelledby="map-list-title" aria-live="polite">
        <h2 id="map-list-title">{p.labels.list}</h2>
        <p className="muted">{p.labels.loading}</p>
      </section>
      <script src="/catalogue-map.js" defer />
    </div>
  );
}
