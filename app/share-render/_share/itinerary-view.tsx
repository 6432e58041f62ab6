import { BrokerCard } from "@/app/_ui/broker-card";
import { ListingCard } from "@/app/_ui/listing-card";
import { formatDate, formatNumber } from "@/lib/i18n/format";
import type { Translator } from "@/lib/i18n/translator";
import { brokerCard } from "@/lib/listings/view/broker-card";
import { arr, num, obj, str, type Doc } from "@/lib/listings/view/doc-fields";
import { listingCardView } from "@/lib/listings/view/listing-card";
import { agentOf, listingHref, pageLink, whatsappText, type ShareView } from "./share-view";

type Stop = { order: number; listingId: string; time: string | null; notes: string | null; listing: Doc };

/** Stops in visiting order: the route's order when it names them all, else as entered. */
export function orderedStops(entity: Doc): Stop[] {
  const stops = arr(entity.stops)
    .map(obj)
    .map((s) => ({ order: num(s.order) ?? 0, listingId: str(s.listingId), time: str(s.time) || null, notes: str(s.notes) || null, listing: obj(s.listing) }));
  const order = arr(obj(entity.routeCache).order).map(str);
  if (order.length === stops.length && stops.every((s) => order.includes(s.listingId))) return order.map((id) => stops.find((s) => s.listingId === id)!);
  return stops.sort((a, b) => a.order - b.order);
}

type RoutePoint = { label: string; lat: number | null; lng: number | null; text: string };

function routePoints(entity: Doc, stops: Stop[]): RoutePoint[] {
  const mp = entity.meetingPoint ? obj(entity.meetingPoint) : null;
  const pts: RoutePoint[] = [];
  if (mp) pts.push({ label: "M", lat: num(mp.latitude), lng: num(mp.longitude), text: [str(mp.address), str(mp.name)].find(Boolean) ?? "" });
  stops.forEach((s, i) => {
    const d = s.listing;
    pts.push({
      label: String(i + 1),
      lat: num(d.location_latitude),
      lng: num(d.location_longitude),
      text: [str(d.location_street), str(d.location_neighborhood), str(d.location_city)].filter(Boolean).join(", "),
    });
  });
  return pts;
}

/** Google Maps directions (opens the maps app on a phone): meeting point, stops as waypoints, last stop as destination. */
export function routeUrl(points: RoutePoint[]): string | null {
  const where = points.map((p) => (p.lat !== null && p.lng !== null ? `${p.lat.toFixed(5)},${p.lng.toFixed(5)}` : p.text)).filter(Boolean);
  if (!where.length) return null;
  const dest = where[where.length - 1];
  const origin = where.length > 1 ? where[0] : null;
  const mid = where.slice(1, -1);
  const q = new URLSearchParams({
    api: "1",
    ...(origin ? { origin } : {}),
    destination: dest,
    ...(mid.length ? { waypoints: mid.join("|") } : {}),
    travelmode: "driving",
  });
  return `https://www.google.com/maps/dir/?${q.toString()}`;
}

/** The route drawn to scale (no tiles): numbered stops joined by a dashed line, the meeting point in black. */
function RouteMap({ t, points }: { t: Translator; points: RoutePoint[] }) {
  const pts = points.filter((p) => p.lat !== null && p.lng !== null) as (RoutePoint & { lat: number; lng: number })[];
  if (!pts.length) return null;
  const W = 600,
    H = 300,
    pad = 36;
  const lats = pts.map((p) => p.lat),
    lngs = pts.map((p) => p.lng);
  const k = Math.cos(((Math.min(...lats) + Math.max(...lats)) / 2) * (Math.PI / 180));
  const spanX = Math.max((Math.max(...lngs) - Math.min(...lngs)) * k, 1e-4);
  const spanY = Math.max(Math.max(...lats) - Math.min(...lats), 1e-4);
  const s = Math.min((W - pad * 2) / spanX, (H - pad * 2) / spanY);
  const cx = (Math.min(...lngs) + Math.max(...lngs)) / 2,
    cy = (Math.min(...lats) + Math.max(...lats)) / 2;
  const xy = (p: { lat: number; lng: number }) => [W / 2 + (p.lng - cx) * k * s, H / 2 - (p.lat - cy) * s].map((v) => v.toFixed(1));
  const label = `${t("share.route")}: ${points.map((p) => (p.label === "M" ? t("share.meetingPoint") : p.label)).join(" → ")}`;
  return (
    <figure className="map">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        <rect width={W} height={H} fill="#e9eef2" />
        {pts.length > 1 && (
          <polyline
            fill="none"
            className="bs"
            strokeWidth="4"
            strokeDasharray="10 8"
            strokeLinecap="round"
            points={pts.map((p) => xy(p).join(",")).join(" ")}
          />
        )}
        <g stroke="#fff" strokeWidth="3">
          {pts.map((p) => {
            const [x, y] = xy(p);
            return <circle key={p.label} cx={x} cy={y} r="15" className={p.label === "M" ? "ink" : "bf"} />;
          })}
        </g>
        <g textAnchor="middle" fontSize="14" fontWeight="700">
          {pts.map((p) => {
            const [x, y] = xy(p);
            return (
              <text key={p.label} x={x} y={y} dy=".35em" className={p.label === "M" ? "wf" : "of"}>
                {p.label}
              </text>
            );
          })}
        </g>
      </svg>
    </figure>
  );
}

/** A visit itinerary: date, meeting point, the drawn route with a maps link, the stops in order with times and notes. */
export function ItineraryView({ view }: { view: ShareView }) {
  const { t, locale } = view;
  const e = view.answer.entity;
  const it = obj(e.itinerary);
  const stops = orderedStops(e);
  const points = routePoints(e, stops);
  const url = routeUrl(points);
  const mp = e.meetingPoint ? obj(e.meetingPoint) : null;
  const legs = arr(obj(e.routeCache).legs).map(obj);
  const totalM = num(obj(e.routeCache).totalDistanceMeters);
  const km = (m: number) => formatNumber(locale, m / 1000, 1);
  const agent = agentOf(e);
  const name = str(it.name);
  return (
    <>
      <div className="pad">
        <p className="eyebrow">{t("share.itineraryDate", { date: formatDate(locale, `${str(it.scheduledDate)}T12:00:00Z`) })}</p>
        <h1 className="title">{name}</h1>
        <p className="muted">
          {t("share.stops", { count: stops.length })}
          {totalM ? ` · ${t("share.totalDistance", { km: km(totalM) })}` : ""}
        </p>
        {mp && (
          <section className="block box" aria-labelledby="meet-title">
            <h2 id="meet-title">{t("share.meetingPoint")}</h2>
            <p className="name">{str(mp.name)}</p>
            {str(mp.address) && <p className="muted">{str(mp.address)}</p>}
          </section>
        )}
        <section className="block" aria-labelledby="route-title">
          <h2 id="route-title">{t("share.route")}</h2>
          <RouteMap t={t} points={points} />
          {url && (
            <p>
              <a className="btn" href={url} rel="noopener noreferrer">
                {t("share.openRoute")}
              </a>
            </p>
          )}
        </section>
      </div>
      <ol className="stops">
        {stops.map((s, i) => {
          const leg = legs.find((l) => str(l.toListingId) === s.listingId);
          const d = num(leg?.distanceMeters);
          return (
            <li key={s.listingId}>
              <span className="num" aria-hidden="true">
                {i + 1}
              </span>
              <ListingCard
                tenantId={view.answer.tenantId}
                card={listingCardView(s.listing, locale, t, view.answer.tenantConfig?.propertyTypes)}
                href={pageLink(view, listingHref(view.base, s.listingId))}
                eager={i === 0}
                priority={i === 0}
                headingLevel={2}
              >
                <span className="stop-meta">
                  <b>{s.time ? t("share.at", { time: s.time }) : t("share.noTime")}</b>
                  {d ? ` · ${t("share.legFrom", { km: km(d) })}` : ""}
                </span>
                {s.notes && (
                  <span className="small">
                    {t("share.notes")}: {s.notes}
                  </span>
                )}
              </ListingCard>
            </li>
          );
        })}
      </ol>
      {agent && (
        <div className="pad block">
          <BrokerCard broker={brokerCard(agent, whatsappText(t, name))} t={t} />
        </div>
      )}
    </>
  );
}
