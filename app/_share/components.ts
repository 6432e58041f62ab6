import { formatMoney, formatNumber, localized, num, str } from "@/app/_site/format";
import { financingFromQuery, simulateFinancing } from "@/lib/sites/render/financing";
import type { ShareAnswer, ShareBranding } from "@/lib/share/share-page";
import { brandColor, inkOnWhite, textOn } from "./colors";
import { html, raw, safeUrl, type Html } from "./html";
import { hasMessage, type ShareLocale, type T } from "./i18n";

/**
 * The share pages' components: plain functions from a resolved share answer (spec 2 §2.8, as
 * `resolveShare` returns it) to markup. They read nothing else, so what a recipient sees is what
 * the resolve gave, and a broker's preview can render them with draft values (a changed
 * `branding`, an answer resolved under a draft `sharingConfig`).
 */

export type Doc = Record<string, unknown>;
export type Agent = { name: string; imageUrl: string | null; phone: string | null; creci: string | null };

export type ShareView = {
  answer: ShareAnswer;
  locale: ShareLocale;
  t: T;
  /** The page's path on this host, with its locale prefix: `/en/p/{token}`. */
  base: string;
  /** Whether the financing simulator may show (the spec's rule, decided by the caller from the host). */
  simulator: boolean;
  /** The simulator's inputs from the query string. */
  query?: Record<string, string | string[] | undefined>;
};

export const obj = (v: unknown): Doc => (v && typeof v === "object" && !Array.isArray(v) ? (v as Doc) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

// ---------- small pieces ----------

export function priceText(view: Pick<ShareView, "t" | "locale">, doc: Doc): string {
  const price = num(doc.price);
  if (price === null) return view.t("listing.priceOnRequest");
  const money = formatMoney(view.locale, price);
  return doc.listingType === "rental" ? view.t("listing.perMonth", { price: money }) : money;
}

export function typeLabel(view: Pick<ShareView, "t" | "locale" | "answer">, id: unknown): string {
  const key = str(id);
  if (!key) return "";
  if (hasMessage(view.locale, `propertyType.${key}`)) return view.t(`propertyType.${key}`);
  return arr(view.answer.tenantConfig?.propertyTypes).map(obj).find((p) => p.id === key)?.label as string ?? key;
}

/** The address at the level the link allows: the property's `address` when given, else the document's place fields. */
export function addressLine(doc: Doc, property?: Doc): string {
  const a = property ? obj(property.address) : {};
  if (property && property.address) {
    const street = [str(a.street), str(a.number)].filter(Boolean).join(", ");
    const area = [str(a.neighborhood), [str(a.city), str(a.state)].filter(Boolean).join(" - ")].filter(Boolean).join(", ");
    return [street, area, str(a.postalCode)].filter(Boolean).join(" · ");
  }
  if (property) return "";
  return [str(doc.location_street), str(doc.location_neighborhood), [str(doc.location_city), str(doc.location_state)].filter(Boolean).join(" - ")].filter(Boolean).join(", ");
}

function point(doc: Doc, property?: Doc): { lat: number; lng: number; approximate: boolean } | null {
  const c = property ? obj(property.coordinates) : {};
  const lat = num(c.latitude) ?? num(doc.location_latitude);
  const lng = num(c.longitude) ?? num(doc.location_longitude);
  if (lat === null || lng === null) return null;
  return { lat, lng, approximate: property ? c.approximate !== false : true };
}

const photosOf = (doc: Doc, medias?: unknown[]): { src: string; alt: string }[] => {
  const fromMedia = arr(medias)
    .map(obj)
    .filter((m) => (m.type ?? "photo") === "photo" && safeUrl(m.src))
    .sort((a, b) => Number(b.isPrimary === true) - Number(a.isPrimary === true) || (num(a.order) ?? 0) - (num(b.order) ?? 0))
    .map((m) => ({ src: str(m.src), alt: str(m.alt) }));
  if (fromMedia.length) return fromMedia;
  const urls = [str(doc.primaryImageUrl), ...arr(doc.imageUrls).map(str)].filter((u) => safeUrl(u));
  return [...new Set(urls)].map((src) => ({ src, alt: "" }));
};

export function coverOf(doc: Doc, medias?: unknown[]): string | null {
  return photosOf(doc, medias)[0]?.src ?? null;
}

function facts(view: ShareView, doc: Doc, property?: Doc): Html {
  const t = view.t;
  const p = property ?? {};
  const items: [string, string][] = [];
  const area = (v: number | null) => (v !== null && v > 0 ? t("listing.area", { area: formatNumber(view.locale, v) }) : null);
  const total = area(num(doc.totalArea) ?? num(p.totalArea));
  const priv = area(num(doc.privateArea) ?? num(p.privateArea) ?? num(p.usableArea));
  if (total) items.push([total, t("listing.totalArea")]);
  if (priv && priv !== total) items.push([priv, t("listing.privateArea")]);
  const counts: [string, number | null][] = [
    ["listing.bedrooms", num(doc.bedrooms) ?? num(p.bedrooms)],
    ["listing.suites", num(doc.suites) ?? num(p.suites)],
    ["listing.bathrooms", num(doc.bathrooms) ?? num(p.bathrooms)],
    ["listing.parking", num(doc.parkingSpots) ?? num(p.parkingSpaces)],
  ];
  for (const [key, v] of counts) if (v !== null && v > 0) items.push([t(key, { count: v }), ""]);
  // Financials only when the link shows them: the resolve drops both keys otherwise.
  const condo = num(doc.condoFee) ?? num(p.condoFee);
  const tax = num(doc.propertyTax) ?? num(p.propertyTax);
  if (condo) items.push([formatMoney(view.locale, condo), t("listing.condoFee")]);
  if (tax) items.push([formatMoney(view.locale, tax), t("listing.propertyTax")]);
  if (!items.length) return html``;
  return html`<ul class="facts">${items.map(([v, label]) => html`<li><b>${v}</b>${label ? html`<span>${label}</span>` : ""}</li>`)}</ul>`;
}

function gallery(view: ShareView, photos: { src: string; alt: string }[], title: string): Html {
  if (!photos.length) return html``;
  const n = photos.length;
  const alt = (p: { alt: string }, i: number) => p.alt || view.t("share.photo", { n: i + 1, total: n });
  return html`<section class="gallery" aria-label="${view.t("share.photos")}">
<img class="cover" src="${photos[0].src}" alt="${photos[0].alt || title}" width="1200" height="800" fetchpriority="high" decoding="async">
${n > 1 ? html`<ul class="strip">${photos.slice(1, 24).map((p, i) => html`<li><img src="${p.src}" alt="${alt(p, i + 1)}" width="600" height="400" loading="lazy" decoding="async"></li>`)}</ul>` : ""}
</section>`;
}

/** A static drawing of a point (no tiles, no scripts), with the approximate area when the link shows it so. */
export function pointMap(view: ShareView, p: { lat: number; lng: number; approximate: boolean }, label: string): Html {
  const t = view.t;
  const maps = `https://www.google.com/maps/search/?api=1&query=${p.lat.toFixed(5)},${p.lng.toFixed(5)}`;
  return html`<section class="block" aria-labelledby="map-title"><h2 id="map-title">${t("share.location")}</h2>
<figure class="map"><svg viewBox="0 0 600 240" role="img" aria-label="${label || t("share.location")}">
<rect width="600" height="240" fill="#e9eef2"/><path d="M0 60H600M0 180H600M150 0V240M330 0V240M480 0V240" stroke="#fff" stroke-width="14"/>
<path d="M0 128L600 96" stroke="#f3d58f" stroke-width="10"/><rect x="170" y="78" width="140" height="80" rx="6" fill="#d4e7cf"/>
${p.approximate ? raw(`<circle cx="300" cy="120" r="78" class="bf bs" fill-opacity=".16" stroke-width="2"/>`) : ""}
${raw(`<circle cx="300" cy="120" r="9" class="bf" stroke="#fff" stroke-width="3"/>`)}</svg>
<figcaption>${p.approximate ? t("share.mapApprox") : t("share.mapExact")} <a href="${maps}" rel="noopener noreferrer">${t("share.openMap")}</a></figcaption></figure></section>`;
}

function simulator(view: ShareView, price: number, action: string): Html {
  const t = view.t;
  const input = financingFromQuery(price, view.query ?? {});
  const r = simulateFinancing(input);
  const m = (v: number) => formatMoney(view.locale, v, true);
  return html`<section class="block box" id="simulador" aria-labelledby="sim-title"><h2 id="sim-title">${t("finance.title")}</h2>
<form method="get" action="${action}#simulador" class="sim">
<label>${t("finance.downPayment")}<input name="entrada" inputmode="numeric" value="${String(Math.round(input.downPayment))}"></label>
<label>${t("finance.rate")}<input name="juros" inputmode="decimal" value="${formatNumber("en", input.annualRatePercent, 2)}"></label>
<label>${t("finance.years")}<input name="prazo" inputmode="numeric" value="${String(input.years)}"></label>
<button class="btn ghost" type="submit">${t("finance.simulate")}</button></form>
${r
  ? html`<table><caption class="sr-only">${t("finance.title")}</caption><tbody>
<tr><th scope="row">${t("finance.financed")}</th><td colspan="2">${m(r.financed)}</td></tr>
<tr><td></td><th scope="col">${t("finance.sac")}</th><th scope="col">${t("finance.price")}</th></tr>
<tr><th scope="row">${t("finance.first")}</th><td>${m(r.sac.first)}</td><td>${m(r.price.monthly)}</td></tr>
<tr><th scope="row">${t("finance.last")}</th><td>${m(r.sac.last)}</td><td>${m(r.price.monthly)}</td></tr>
<tr><th scope="row">${t("finance.totalPaid")}</th><td>${m(r.sac.total)}</td><td>${m(r.price.total)}</td></tr></tbody></table>`
  : html`<p class="notice" role="alert">${t("finance.invalid")}</p>`}
<p class="muted small">${t("finance.note")}</p></section>`;
}

const waDigits = (agent: Agent | null) => agent?.phone?.replace(/\D/g, "") ?? "";

/** The broker's WhatsApp address with a first message naming what was shared. */
export function whatsappUrl(view: Pick<ShareView, "t">, agent: Agent | null, title: string): string | null {
  const digits = waDigits(agent);
  if (digits.length < 8) return null;
  const text = title ? view.t("share.whatsappText", { title }) : view.t("share.whatsappTextPlain");
  return `https://wa.me/${digits}?text=${encodeURIComponent(text)}`;
}

export function agentCard(view: ShareView, agent: Agent | null, title: string): Html {
  if (!agent) return html``;
  const t = view.t;
  const wa = whatsappUrl(view, agent, title);
  const digits = waDigits(agent);
  const photo = safeUrl(agent.imageUrl);
  return html`<section class="block box agent" aria-labelledby="agent-title"><h2 id="agent-title">${t("broker.title")}</h2>
<div class="who">${photo ? html`<img src="${photo}" alt="" width="56" height="56" loading="lazy" decoding="async">` : ""}<div><p class="name">${agent.name}</p>${agent.creci ? html`<p class="muted">${t("broker.creci", { creci: agent.creci })}</p>` : ""}</div></div>
${wa ? html`<p class="actions"><a class="btn" href="${wa}" rel="noopener noreferrer">${t("broker.whatsapp")}</a><a class="btn ghost" href="tel:+${digits}">${t("broker.call")}</a></p>` : ""}</section>`;
}

/** The phone's thumb bar: one button to message the broker, always in reach. */
export function contactBar(view: ShareView, agent: Agent | null, title: string): Html {
  const wa = whatsappUrl(view, agent, title);
  if (!wa || !agent) return html``;
  return html`<aside class="bar" aria-label="${view.t("broker.title")}"><a class="btn" href="${wa}" rel="noopener noreferrer">${view.t("share.contact", { name: agent.name.split(" ")[0] })}</a></aside>`;
}

// ---------- the listing ----------

/** A listing as the link shows it: gallery, title, place, price, facts, description, features, map, simulator, broker. */
export function listingView(view: ShareView, input: { doc: Doc; property?: Doc; medias?: unknown[]; agent: Agent | null; action: string; headingLevel?: 1 | 2; hideTitle?: boolean }): Html {
  const { doc, property } = input;
  const t = view.t;
  const title = localized(doc, "title", view.locale) || typeLabel(view, doc.propertyType);
  const description = localized(doc, "description", view.locale).trim();
  const place = addressLine(doc, property);
  const code = str(doc.listingCode);
  const kind = typeLabel(view, doc.propertyType ?? property?.type);
  const business = doc.listingType === "rental" ? t("business.rental") : t("business.sale");
  const featureLabels = new Map(arr(view.answer.tenantConfig?.propertyFeatures).map(obj).map((f) => [str(f.id), str(f.label)]));
  const features = arr(doc.features).map(str).filter(Boolean).map((f) => featureLabels.get(f) || f);
  const pt = point(doc, property);
  const price = num(doc.price);
  const h = input.headingLevel ?? 1;
  const media = ([[doc.videoUrl, t("listing.video")], [doc.tourUrl, t("listing.tour")]] as const)
    .map(([u, label]) => [typeof u === "string" && /^https?:\/\//i.test(u) ? u : null, label] as const)
    .filter((m): m is readonly [string, string] => m[0] !== null);
  return html`${gallery(view, photosOf(doc, input.medias), title)}
<div class="pad">
<p class="eyebrow">${[kind, business, code ? t("share.code", { code }) : ""].filter(Boolean).join(" · ")}</p>
${input.hideTitle ? "" : html`${raw(`<h${h} class="title">`)}${title}${raw(`</h${h}>`)}`}
${place ? html`<p class="place">${place}</p>` : ""}
<p class="price">${priceText(view, doc)}</p>
${facts(view, doc, property)}
${description ? html`<section class="block" aria-labelledby="desc-title"><h2 id="desc-title">${t("listing.description")}</h2>${description.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean).map((p) => html`<p>${p}</p>`)}</section>` : ""}
${features.length ? html`<section class="block" aria-labelledby="feat-title"><h2 id="feat-title">${t("listing.features")}</h2><ul class="tags">${features.map((f) => html`<li>${f}</li>`)}</ul></section>` : ""}
${media.length ? html`<p class="actions">${media.map(([href, label]) => html`<a class="btn ghost" href="${href}" rel="noopener noreferrer">${label}</a>`)}</p>` : ""}
${pt ? pointMap(view, pt, place) : ""}
${view.simulator && doc.listingType === "sale" && price !== null ? simulator(view, price, input.action) : ""}
${agentCard(view, input.agent, title)}
</div>`;
}

/** A listing in a list: photo, title, place, price, key numbers, one link. */
export function listingCard(view: ShareView, doc: Doc, href: string, extra?: Html, eager = false): Html {
  const t = view.t;
  const title = localized(doc, "title", view.locale) || typeLabel(view, doc.propertyType);
  const cover = coverOf(doc);
  const place = [str(doc.location_neighborhood), str(doc.location_city)].filter(Boolean).join(", ");
  const bits = [
    num(doc.totalArea) ? t("listing.area", { area: formatNumber(view.locale, num(doc.totalArea)!) }) : "",
    num(doc.bedrooms) ? t("listing.bedrooms", { count: num(doc.bedrooms)! }) : "",
    num(doc.parkingSpots) ? t("listing.parking", { count: num(doc.parkingSpots)! }) : "",
  ].filter(Boolean);
  return html`<article class="card"><a href="${href}">
${cover ? html`<img src="${cover}" alt="" width="600" height="400" ${raw(eager ? 'fetchpriority="high"' : 'loading="lazy"')} decoding="async">` : html`<span class="noimg"></span>`}
<span class="card-body"><span class="card-title">${title}</span>${place ? html`<span class="muted">${place}</span>` : ""}
<span class="price">${priceText(view, doc)}</span>${bits.length ? html`<span class="muted small">${bits.join(" · ")}</span>` : ""}${extra ?? ""}</span></a></article>`;
}

// ---------- the four kinds ----------

export const listingHref = (base: string, listingId: string) => `${base}/l/${encodeURIComponent(listingId)}`;

// ---------- chrome ----------

export type Languages = { current: ShareLocale; available: string[]; hrefFor: (locale: string) => string };

const LANGUAGE_NAMES: Record<string, string> = { "pt-BR": "Português", en: "English", es: "Español" };

/** The tenant's band: logo, name, and the other languages of the page. */
export function brandHeader(branding: ShareBranding, t: T, langs?: Languages): Html {
  const logo = safeUrl(branding.logo);
  const others = langs ? langs.available.filter((l) => l in LANGUAGE_NAMES) : [];
  return html`<header class="brand"><div class="in">
${logo ? html`<img class="logo" src="${logo}" alt="" width="40" height="40" decoding="async">` : html`<span class="mark" aria-hidden="true">${branding.name.trim().charAt(0).toUpperCase()}</span>`}
<span class="brand-name">${branding.name}</span>
${langs && others.length > 1 ? html`<nav class="langs" aria-label="${t("share.languages")}">${others.map((l) => html`<a href="${langs.hrefFor(l)}" hreflang="${l}" lang="${l}"${raw(l === langs.current ? ' aria-current="true"' : "")}>${l === "pt-BR" ? "PT" : l.toUpperCase()}<span class="sr-only"> ${LANGUAGE_NAMES[l]}</span></a>`)}</nav>` : ""}
</div></header>`;
}

/** CSS custom properties of the brand: the colour, the text on it, the colour as text on white. */
export function brandStyle(branding: Pick<ShareBranding, "primaryColor">): string {
  const c = brandColor(branding.primaryColor);
  return `--brand:${c};--on-brand:${textOn(c)};--brand-ink:${inkOnWhite(c)}`;
}
