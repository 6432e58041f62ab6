import { getTranslations } from "@/app/_site/translations";

/**
 * The listing's place at the public precision (coordinates rounded to 3 decimals, about 100 m):
 * a static drawing with a 100 m circle and a link to OpenStreetMap. No map tiles or scripts are
 * loaded (third-party tiles are unreachable offline and would cost the page its speed).
 */
export async function LocationMap({ lat, lng, label }: { lat: number; lng: number; label: string }) {
  const t = await getTranslations("listing");
  const osm = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`;
  return (
    <figure className="map" style={{ margin: 0 }}>
      <svg viewBox="0 0 600 260" role="img" aria-label={`${label} (${lat.toFixed(3)}, ${lng.toFixed(3)})`}>
        <rect width="600" height="260" fill="#e8eef2" />
        <path d="M0 70 H600 M0 190 H600 M140 0 V260 M330 0 V260 M470 0 V260" stroke="#fff" strokeWidth="14" />
        <path d="M0 130 L600 100" stroke="#f6d58e" strokeWidth="10" />
        <rect x="160" y="88" width="150" height="84" fill="#d3e6cf" rx="6" />
        <circle cx="300" cy="130" r="58" fill="rgba(11,92,173,.15)" stroke="#0b5cad" strokeWidth="2" />
        <circle cx="300" cy="130" r="7" fill="#0b5cad" />
      </svg>
      <figcaption style={{ padding: "10px 14px", fontSize: ".9rem" }}>
        {t("mapNote")} <a href={osm} rel="noopener noreferrer">{t("openMap")}</a>
      </figcaption>
    </figure>
  );
}
