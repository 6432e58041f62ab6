"use client";

import type * as Leaflet from "leaflet";
import { useEffect, useRef, useState } from "react";

type Cluster = { lat: number; lng: number; count: number; bbox: { west: number; south: number; east: number; north: number } };
type Pin = { id: string; lat: number; lng: number; price: number | null; type: string | null };
type Answer = { clusters: Cluster[]; pins: Pin[]; total: number };

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

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const r5 = (v: number) => Math.round(v * 100_000) / 100_000;

/**
 * The catalogue's map view: a client island that loads Leaflet only here. Moving or zooming asks
 * `/api/sites/{siteId}/map` for the view's clusters and pins, redraws them, fills the list beside
 * the map (the keyboard and screen-reader equivalent of the markers) and keeps the view in the URL.
 */
export function CatalogueMap(p: CatalogueMapProps) {
  const box = useRef<HTMLElement>(null);
  const mapRef = useRef<Leaflet.Map | null>(null);
  const [data, setData] = useState<Answer | null>(null);
  const money = new Intl.NumberFormat(p.locale, { style: "currency", currency: "BRL", maximumFractionDigits: 0 });
  const priceOf = (v: number | null) => (v === null ? p.labels.priceOnRequest : money.format(v));
  const typeOf = (t: string | null) => (t ? (p.typeNames[t] ?? t) : "");
  const cluster = (n: number) => p.labels.cluster.replace("{count}", String(n));

  // The map is made once: the props come from the server render and do not change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: made once per page
  useEffect(() => {
    let cancelled = false;
    let map: Leaflet.Map | null = null;
    let layer: Leaflet.LayerGroup | null = null;
    let asked = 0;
    void import("leaflet").then(({ default: L }) => {
      if (cancelled || !box.current) return;
      map = L.map(box.current, { zoomControl: true });
      if ("zoom" in p.at) map.setView([p.at.lat, p.at.lng], p.at.zoom);
      else
        map.fitBounds(
          [
            [p.at.south, p.at.west],
            [p.at.north, p.at.east],
          ],
          { maxZoom: 15, padding: [24, 24] },
        );
      mapRef.current = map;
      L.tileLayer(p.tilesUrl, { attribution: p.attribution, maxZoom: 19 }).addTo(map);
      layer = L.layerGroup().addTo(map);
      const load = async () => {
        if (!map || !layer) return;
        const b = map.getBounds();
        // Leaflet's longitudes run past ±180 when the world wraps; the API takes one box inside it.
        const west = clamp(b.getWest(), -180, 180);
        const east = clamp(b.getEast(), -180, 180);
        const bbox = [r5(west), r5(clamp(b.getSouth(), -90, 90)), r5(east > west ? east : 180), r5(clamp(b.getNorth(), -90, 90))].join(",");
        const zoom = map.getZoom();
        const url = new URL(window.location.href);
        const c = map.getCenter();
        url.searchParams.set("at", `${r5(c.lat)},${r5(c.lng)},${zoom}`);
        window.history.replaceState(null, "", url);
        const qs = new URLSearchParams({ bbox, zoom: String(zoom) });
        if (p.q && p.q !== "*") qs.set("q", p.q);
        if (p.filterBy) qs.set("filter_by", p.filterBy);
        const mine = ++asked;
        const res = await fetch(`/api/sites/${p.siteId}/map?${qs}`);
        if (!res.ok || mine !== asked || cancelled) return;
        const answer = (await res.json()) as Answer;
        layer.clearLayers();
        for (const k of answer.clusters) {
          const icon = L.divIcon({ className: "map-cluster", html: `<span>${k.count}</span>`, iconSize: [40, 40] });
          // Markers are not focusable: the list beside the map is their keyboard equivalent.
          L.marker([k.lat, k.lng], { icon, keyboard: false, title: cluster(k.count) })
            .on("click", () =>
              map?.fitBounds(
                [
                  [k.bbox.south, k.bbox.west],
                  [k.bbox.north, k.bbox.east],
                ],
                { maxZoom: 18, padding: [40, 40] },
              ),
            )
            .addTo(layer);
        }
        for (const pin of answer.pins) {
          const icon = L.divIcon({ className: "map-pin", html: `<span>${priceOf(pin.price)}</span>`, iconSize: undefined });
          L.marker([pin.lat, pin.lng], { icon, keyboard: false, title: `${typeOf(pin.type)} ${priceOf(pin.price)}` })
            .on("click", () => window.location.assign(p.listingHref.replace("{id}", pin.id)))
            .addTo(layer);
        }
        setData(answer);
      };
      map.on("moveend", () => void load());
      void load();
    });
    return () => {
      cancelled = true;
      map?.remove();
      mapRef.current = null;
    };
  }, []);

  const zoomTo = (k: Cluster) =>
    mapRef.current?.fitBounds(
      [
        [k.bbox.south, k.bbox.west],
        [k.bbox.north, k.bbox.east],
      ],
      { maxZoom: 18, padding: [40, 40] },
    );

  return (
    // `data-client-island`: this page keeps Next.js's client runtime (lib/sites/render/client-runtime.ts).
    <div className="map-view" data-client-island="">
      <section ref={box} className="map-canvas" aria-label={p.labels.map} />
      <section className="map-list" aria-labelledby="map-list-title" aria-live="polite">
        <h2 id="map-list-title">{p.labels.list}</h2>
        {!data ? (
          <p className="muted">{p.labels.loading}</p>
        ) : data.total === 0 ? (
          <p className="muted">{p.labels.empty}</p>
        ) : (
          <ul>
            {data.clusters.map((k) => (
              <li key={`${k.lat},${k.lng}`}>
                <span>{cluster(k.count)}</span>{" "}
                <button type="button" className="linkish" onClick={() => zoomTo(k)}>
                  {p.labels.zoomIn}
                </button>
              </li>
            ))}
            {data.pins.map((pin) => (
              <li key={pin.id}>
                <a href={p.listingHref.replace("{id}", pin.id)}>
                  {typeOf(pin.type)} · {priceOf(pin.price)}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
