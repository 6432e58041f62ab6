/**
 * The page body of a resolved share link, by kind (spec 2 §2.8): shortlist, seller report and
 * visit itinerary views, built from the shared components (`./components`) and nothing else
 * than the resolve answer.
 */
import { formatDate, formatNumber, localized, num, str } from "@/app/_site/format";
import { agentCard, arr, listingCard, listingHref, listingView, obj, type Agent, type Doc, type ShareView } from "./components";
import { html, raw, type Html } from "./html";

function shortlistView(view: ShareView): Html {
  const e = view.answer.entity;
  const sl = obj(e.shortlist);
  const docs = arr(e.listings).map(obj);
  const t = view.t;
  return html`<div class="pad"><h1 class="title">${str(sl.name)}</h1>
${str(sl.description) ? html`<p class="lead">${str(sl.description)}</p>` : ""}
<p class="muted">${t("share.shortlistCount", { count: docs.length })}</p></div>
<ul class="cards">${docs.map((d, i) => html`<li>${listingCard(view, d, listingHref(view.base, str(d.id)), undefined, i === 0)}</li>`)}</ul>
<div class="pad">${agentCard(view, e.agent as Agent | null, str(sl.name))}</div>`;
}

/** Weekly views (bars) and leads (dots) as a small SVG chart, with the figures in a table for screen readers. */
export function timelineChart(view: ShareView, weeks: { week: string; views: number; leads: number }[]): Html {
  const t = view.t;
  if (!weeks.length) return html``;
  const W = 600, H = 180, pad = 24, gap = 6;
  // Views and leads differ by orders of magnitude: each has its own scale, and each lead dot says its number.
  const maxViews = Math.max(1, ...weeks.map((w) => w.views));
  const maxLeads = Math.max(1, ...weeks.map((w) => w.leads));
  const bw = (W - pad * 2) / weeks.length;
  const y = (v: number) => H - pad - (v / maxViews) * (H - pad * 2);
  const yl = (v: number) => H - pad - (v / maxLeads) * (H - pad * 2) * 0.8;
  const bars = weeks.map((w, i) => `<rect x="${(pad + i * bw + gap / 2).toFixed(1)}" y="${y(w.views).toFixed(1)}" width="${(bw - gap).toFixed(1)}" height="${(H - pad - y(w.views)).toFixed(1)}" rx="3" class="bf" fill-opacity=".85"/>`).join("");
  const dots = weeks
    .map((w, i) => {
      const cx = (pad + i * bw + bw / 2).toFixed(1);
      const cy = yl(w.leads);
      return `<circle cx="${cx}" cy="${cy.toFixed(1)}" r="5" fill="#111418" stroke="#fff" stroke-width="2"/>` +
        (w.leads > 0 ? `<text x="${cx}" y="${(cy - 10).toFixed(1)}" text-anchor="middle" font-size="13" font-weight="700" fill="#111418" stroke="#fff" stroke-width="3" paint-order="stroke">${w.leads}</text>` : "");
    })
    .join("");
  const line = `<polyline fill="none" stroke="#111418" stroke-width="2" points="${weeks.map((w, i) => `${(pad + i * bw + bw / 2).toFixed(1)},${yl(w.leads).toFixed(1)}`).join(" ")}"/>`;
  const day = (iso: string) => formatDate(view.locale, `${iso}T12:00:00Z`);
  const first = day(weeks[0].week);
  const last = day(weeks[weeks.length - 1].week);
  const total = weeks.reduce((a, w) => ({ views: a.views + w.views, leads: a.leads + w.leads }), { views: 0, leads: 0 });
  const label = `${t("share.reportChart")}: ${first} – ${last}. ${total.views} ${t("share.reportLegendViews")}, ${total.leads} ${t("share.reportLegendLeads")}.`;
  return html`<figure class="chart"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">
<line x1="${pad}" y1="${H - pad}" x2="${W - pad}" y2="${H - pad}" stroke="#9aa5b1"/>${raw(bars + line + dots)}</svg>
<figcaption><span class="key bar-key"></span>${t("share.reportLegendViews")} <span class="key dot-key"></span>${t("share.reportLegendLeads")} <span class="muted small">${first} – ${last}</span></figcaption>
<table class="sr-only"><caption>${t("share.reportChart")}</caption><thead><tr><th scope="col">${t("share.reportWeek")}</th><th scope="col">${t("share.reportViews")}</th><th scope="col">${t("share.reportLeads")}</th></tr></thead>
<tbody>${weeks.map((w) => html`<tr><th scope="row">${day(w.week)}</th><td>${w.views}</td><td>${w.leads}</td></tr>`)}</tbody></table></figure>`;
}

function sellerReportView(view: ShareView): Html {
  const e = view.answer.entity;
  const t = view.t;
  const stats = obj(e.stats);
  const days = num(stats.daysOnMarket);
  const tiles: [string, string][] = [
    [formatNumber(view.locale, num(stats.views) ?? 0), t("share.reportViews")],
    [formatNumber(view.locale, num(stats.leads) ?? 0), t("share.reportLeads")],
    [days === null ? "–" : formatNumber(view.locale, days), days === null ? `${t("share.reportDays")} (${t("share.reportNoDays")})` : t("share.reportDays")],
  ];
  const weeks = arr(stats.timeline).map(obj).map((w) => ({ week: str(w.week), views: num(w.views) ?? 0, leads: num(w.leads) ?? 0 }));
  const doc = obj(e.listing);
  return html`<div class="pad"><p class="eyebrow">${t("share.reportTitle")}</p><h1 class="title">${localized(doc, "title", view.locale)}</h1>
<ul class="tiles">${tiles.map(([v, l]) => html`<li><b>${v}</b><span>${l}</span></li>`)}</ul>
<section class="block" aria-labelledby="chart-title"><h2 id="chart-title">${t("share.reportChart")}</h2>${timelineChart(view, weeks)}</section>
<h2>${t("share.reportProperty")}</h2></div>
${listingView(view, { doc, property: obj(e.property), medias: arr(e.medias), agent: (e.agent as Agent | null) ?? null, action: view.base, hideTitle: true })}`;
}

type Stop = { order: number; listingId: string; time: string | null; notes: string | null; listing: Doc };

/** Stops in visiting order: the route's order when it names them all, else as entered. */
export function orderedStops(entity: Doc): Stop[] {
  const stops = arr(entity.stops).map(obj).map((s) => ({ order: num(s.order) ?? 0, listingId: str(s.listingId), time: str(s.time) || null, notes: str(s.notes) || null, listing: obj(s.listing) }));
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
    pts.push({ label: String(i + 1), lat: num(d.location_latitude), lng: num(d.location_longitude), text: [str(d.location_street), str(d.location_neighborhood), str(d.location_city)].filter(Boolean).join(", ") });
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
  const q = new URLSearchParams({ api: "1", ...(origin ? { origin } : {}), destination: dest, ...(mid.length ? { waypoints: mid.join("|") } : {}), travelmode: "driving" });
  return `https://www.google.com/maps/dir/?${q.toString()}`;
}

function routeMap(view: ShareView, points: RoutePoint[]): Html {
  const pts = points.filter((p) => p.lat !== null && p.lng !== null) as (RoutePoint & { lat: number; lng: number })[];
  if (!pts.length) return html``;
  const W = 600, H = 300, pad = 36;
  const lats = pts.map((p) => p.lat), lngs = pts.map((p) => p.lng);
  const k = Math.cos(((Math.min(...lats) + Math.max(...lats)) / 2) * (Math.PI / 180));
  const spanX = Math.max((Math.max(...lngs) - Math.min(...lngs)) * k, 1e-4);
  const spanY = Math.max(Math.max(...lats) - Math.min(...lats), 1e-4);
  const s = Math.min((W - pad * 2) / spanX, (H - pad * 2) / spanY);
  const cx = (Math.min(...lngs) + Math.max(...lngs)) / 2, cy = (Math.min(...lats) + Math.max(...lats)) / 2;
  const xy = (p: { lat: number; lng: number }) => [W / 2 + (p.lng - cx) * k * s, H / 2 - (p.lat - cy) * s].map((v) => v.toFixed(1));
  const line = pts.length > 1 ? `<polyline fill="none" class="bs" stroke-width="4" stroke-dasharray="10 8" stroke-linecap="round" points="${pts.map((p) => xy(p).join(",")).join(" ")}"/>` : "";
  const marks = pts
    .map((p) => {
      const [x, y] = xy(p);
      const meet = p.label === "M";
      return `<circle cx="${x}" cy="${y}" r="15" ${meet ? 'fill="#111418"' : 'class="bf"'} stroke="#fff" stroke-width="3"/><text x="${x}" y="${y}" dy=".35em" text-anchor="middle" font-size="14" font-weight="700" ${meet ? 'fill="#fff"' : 'class="of"'}>${p.label}</text>`;
    })
    .join("");
  const label = `${view.t("share.route")}: ${points.map((p) => (p.label === "M" ? view.t("share.meetingPoint") : p.label)).join(" → ")}`;
  return html`<figure class="map"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}"><rect width="${W}" height="${H}" fill="#e9eef2"/>${raw(line + marks)}</svg></figure>`;
}

function itineraryView(view: ShareView): Html {
  const e = view.answer.entity;
  const t = view.t;
  const it = obj(e.itinerary);
  const stops = orderedStops(e);
  const points = routePoints(e, stops);
  const url = routeUrl(points);
  const mp = e.meetingPoint ? obj(e.meetingPoint) : null;
  const legs = arr(obj(e.routeCache).legs).map(obj);
  const totalM = num(obj(e.routeCache).totalDistanceMeters);
  const km = (m: number) => formatNumber(view.locale, m / 1000, 1);
  return html`<div class="pad"><p class="eyebrow">${t("share.itineraryDate", { date: formatDate(view.locale, `${str(it.scheduledDate)}T12:00:00Z`) })}</p>
<h1 class="title">${str(it.name)}</h1>
<p class="muted">${t("share.stops", { count: stops.length })}${totalM ? ` · ${t("share.totalDistance", { km: km(totalM) })}` : ""}</p>
${mp ? html`<section class="block box" aria-labelledby="meet-title"><h2 id="meet-title">${t("share.meetingPoint")}</h2><p class="name">${str(mp.name)}</p>${str(mp.address) ? html`<p class="muted">${str(mp.address)}</p>` : ""}</section>` : ""}
<section class="block" aria-labelledby="route-title"><h2 id="route-title">${t("share.route")}</h2>${routeMap(view, points)}
${url ? html`<p><a class="btn" href="${url}" rel="noopener noreferrer">${t("share.openRoute")}</a></p>` : ""}</section></div>
<ol class="stops">${stops.map((s, i) => {
    const leg = legs.find((l) => str(l.toListingId) === s.listingId);
    const d = num(leg?.distanceMeters);
    const extra = html`<span class="stop-meta"><b>${s.time ? t("share.at", { time: s.time }) : t("share.noTime")}</b>${d ? ` · ${t("share.legFrom", { km: km(d) })}` : ""}</span>${s.notes ? html`<span class="small">${t("share.notes")}: ${s.notes}</span>` : ""}`;
    return html`<li><span class="num" aria-hidden="true">${i + 1}</span>${listingCard(view, s.listing, listingHref(view.base, s.listingId), extra, i === 0)}</li>`;
  })}</ol>
<div class="pad">${agentCard(view, e.agent as Agent | null, str(it.name))}</div>`;
}


/** The page body of a resolved link, by kind. */
export function shareBody(view: ShareView): Html {
  const e = view.answer.entity;
  switch (e.type) {
    case "listing":
      return listingView(view, { doc: obj(e.listing), property: obj(e.property), medias: arr(e.medias), agent: (e.agent as Agent | null) ?? null, action: view.base });
    case "seller_report":
      return sellerReportView(view);
    case "shortlist":
      return shortlistView(view);
    case "visit_itinerary":
      return itineraryView(view);
    default:
      return html``;
  }
}

/** The listings of a shortlist or an itinerary (in its stops' order), as the resolve gave them. */
const memberDocs = (e: Doc): Doc[] => (e.type === "shortlist" ? arr(e.listings).map(obj) : e.type === "visit_itinerary" ? orderedStops(e).map((s) => s.listing) : []);

/** One listing of a shortlist or an itinerary by id, or null when it is not one of them. */
export const memberDoc = (e: Doc, listingId: string): Doc | null => memberDocs(e).find((d) => str(d.id) === listingId) ?? null;

/** One listing of a shortlist or an itinerary, from the document the resolve gave for it, with the way back and on. */
export function memberListingBody(view: ShareView, listingId: string): Html | null {
  const e = view.answer.entity;
  const docs = memberDocs(e);
  const i = docs.findIndex((d) => str(d.id) === listingId);
  if (i < 0) return null;
  const t = view.t;
  const name = e.type === "shortlist" ? str(obj(e.shortlist).name) : str(obj(e.itinerary).name);
  const prev = docs[i - 1], next = docs[i + 1];
  const nav = html`<nav class="pager pad" aria-label="${t("share.positionOf", { n: i + 1, total: docs.length })}">
<a href="${view.base}">← ${t("share.backTo", { name })}</a><span class="muted">${t("share.positionOf", { n: i + 1, total: docs.length })}</span>
${prev ? html`<a href="${listingHref(view.base, str(prev.id))}" rel="prev">${t("share.previous")}</a>` : ""}${next ? html`<a href="${listingHref(view.base, str(next.id))}" rel="next">${t("share.next")}</a>` : ""}</nav>`;
  const body = listingView(view, { doc: docs[i], agent: (e.agent as Agent | null) ?? null, action: listingHref(view.base, listingId) });
  return html`${nav}${body}`;
}
