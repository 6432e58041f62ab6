import { config } from "@/lib/config";
import type { Translator } from "@/lib/i18n/translator";
import { mapsLink, type MapPoint } from "@/lib/listings/view/map-point";

/**
 * A listing's place: a drawing of it (no tiles, no script: what shows without JavaScript and
 * until the map nears the screen), with the area around the point when it is approximate, what the
 * point means (`note`), and a link that opens it in the visitor's maps app. `/listing-map.js`
 * then draws the same point on a Leaflet map with tiles from `MAP_TILES_URL` (the catalogue's
 * map view uses the same tiles), the circle included. The brand colour comes from the page's
 * stylesheet (`.bf` fill, `.bs` stroke: `var(--brand)`). Synchronous, so site pages (Next.js) and
 * share pages (`renderToStaticMarkup`) render it alike.
 */
export function LocationMap({ point, label, note, t }: { point: MapPoint; label: string; note: string; t: Translator }) {
  const c = config();
  return (
    <figure
      className="map"
      data-map=""
      data-lat={point.lat}
      data-lng={point.lng}
      data-radius={point.radiusM}
      data-label={label || t("listing.location")}
      data-tiles={c.MAP_TILES_URL}
      data-attribution={c.MAP_TILES_ATTRIBUTION}
    >
      <svg viewBox="0 0 600 240" role="img" aria-label={label || t("listing.location")}>
        <rect width="600" height="240" fill="#e9eef2" />
        <path d="M0 60H600M0 180H600M150 0V240M330 0V240M480 0V240" stroke="#fff" strokeWidth="14" />
        <path d="M0 128L600 96" stroke="#f3d58f" strokeWidth="10" />
        <rect x="170" y="78" width="140" height="80" rx="6" fill="#d4e7cf" />
        {point.approximate && <circle cx="300" cy="120" r="78" className="bf bs" fillOpacity=".16" strokeWidth="2" />}
        <circle cx="300" cy="120" r="9" className="bf" stroke="#fff" strokeWidth="3" />
      </svg>
      <figcaption>
        {note}{" "}
        <a href={mapsLink(point)} rel="noopener noreferrer">
          {t("listing.openMap")}
        </a>
      </figcaption>
      <script src="/listing-map.js" defer />
    </figure>
  );
}
