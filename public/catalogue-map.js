/*
 * The catalogue's map view (`?view=map`, app/site-render/_site/components/catalogue-map.tsx): the
 * page ships the map's box and its list; this loads Leaflet from our own server, draws the view
 * kept in the URL (or the box of the first page's listings), and on every move asks
 * `/api/sites/{siteId}/map` for the view's clusters and pins. The list beside the map is their
 * keyboard and screen-reader equivalent, and the view is kept in the URL (`at=lat,lng,zoom`) so it
 * can be shared. A plain script, as the site's other islands: the page carries no framework
 * runtime, so its first paint and main thread are the same as the list view's.
 */
(function () {
  var root = document.querySelector("[data-catalogue-map]");
  if (!root) return;
  var p = JSON.parse(root.getAttribute("data-catalogue-map"));
  var canvas = root.querySelector(".map-canvas");
  var list = root.querySelector(".map-list");
  var money = new Intl.NumberFormat(p.locale, { style: "currency", currency: "BRL", maximumFractionDigits: 0 });
  var clamp = function (v, lo, hi) {
    return Math.min(hi, Math.max(lo, v));
  };
  var r5 = function (v) {
    return Math.round(v * 100000) / 100000;
  };
  var priceOf = function (v) {
    return v === null ? p.labels.priceOnRequest : money.format(v);
  };
  var typeOf = function (t) {
    return t ? p.typeNames[t] || t : "";
  };
  var clusterLabel = function (n) {
    return p.labels.cluster.replace("{count}", String(n));
  };
  var listingHref = function (id) {
    return p.listingHref.replace("{id}", encodeURIComponent(id));
  };

  function text(tag, value, className) {
    var el = document.createElement(tag);
    el.textContent = value;
    if (className) el.className = className;
    return el;
  }

  /** The list under the heading: one line per cluster (with its zoom button), one link per pin. */
  function fillList(answer, zoomTo) {
    var heading = list.querySelector("h2");
    while (heading.nextSibling) list.removeChild(heading.nextSibling);
    if (answer.total === 0 || (!answer.clusters.length && !answer.pins.length)) {
      list.appendChild(text("p", p.labels.empty, "muted"));
      return;
    }
    var ul = document.createElement("ul");
    answer.clusters.forEach(function (k) {
      var li = document.createElement("li");
      li.appendChild(text("span", clusterLabel(k.count)));
      li.appendChild(document.createTextNode(" "));
      var button = text("button", p.labels.zoomIn, "linkish");
      button.type = "button";
      button.addEventListener("click", function () {
        zoomTo(k);
      });
      li.appendChild(button);
      ul.appendChild(li);
    });
    answer.pins.forEach(function (pin) {
      var li = document.createElement("li");
      var a = text("a", typeOf(pin.type) + " · " + priceOf(pin.price));
      a.href = listingHref(pin.id);
      li.appendChild(a);
      ul.appendChild(li);
    });
    list.appendChild(ul);
  }

  function start(L) {
    var map = L.map(canvas, { zoomControl: true });
    var at = p.at;
    if ("zoom" in at) map.setView([at.lat, at.lng], at.zoom);
    else
      map.fitBounds(
        [
          [at.south, at.west],
          [at.north, at.east],
        ],
        { maxZoom: 15, padding: [24, 24] },
      );
    L.tileLayer(p.tiles, { attribution: p.attribution, maxZoom: 19 }).addTo(map);
    var layer = L.layerGroup().addTo(map);
    var asked = 0;
    var zoomTo = function (k) {
      map.fitBounds(
        [
          [k.bbox.south, k.bbox.west],
          [k.bbox.north, k.bbox.east],
        ],
        { maxZoom: 18, padding: [40, 40] },
      );
    };

    function load() {
      var b = map.getBounds();
      // Leaflet's longitudes run past ±180 when the world wraps; the API takes one box inside it.
      var west = clamp(b.getWest(), -180, 180);
      var east = clamp(b.getEast(), -180, 180);
      var bbox = [r5(west), r5(clamp(b.getSouth(), -90, 90)), r5(east > west ? east : 180), r5(clamp(b.getNorth(), -90, 90))].join(",");
      var zoom = map.getZoom();
      var c = map.getCenter();
      var url = new URL(window.location.href);
      url.searchParams.set("at", r5(c.lat) + "," + r5(c.lng) + "," + zoom);
      window.history.replaceState(null, "", url);
      var qs = new URLSearchParams({ bbox: bbox, zoom: String(zoom) });
      if (p.q && p.q !== "*") qs.set("q", p.q);
      if (p.filterBy) qs.set("filter_by", p.filterBy);
      var mine = ++asked;
      fetch("/api/sites/" + p.siteId + "/map?" + qs)
        .then(function (res) {
          return res.ok ? res.json() : null;
        })
        .then(function (answer) {
          if (!answer || mine !== asked) return;
          layer.clearLayers();
          answer.clusters.forEach(function (k) {
            var icon = L.divIcon({ className: "map-cluster", html: "<span>" + Number(k.count) + "</span>", iconSize: [40, 40] });
            // Markers are not focusable: the list beside the map is their keyboard equivalent.
            L.marker([k.lat, k.lng], { icon: icon, keyboard: false, title: clusterLabel(k.count) })
              .on("click", function () {
                zoomTo(k);
              })
              .addTo(layer);
          });
          answer.pins.forEach(function (pin) {
            var label = document.createElement("span");
            label.textContent = priceOf(pin.price);
            var icon = L.divIcon({ className: "map-pin", html: label, iconSize: null });
            L.marker([pin.lat, pin.lng], { icon: icon, keyboard: false, title: typeOf(pin.type) + " " + priceOf(pin.price) })
              .on("click", function () {
                window.location.assign(listingHref(pin.id));
              })
              .addTo(layer);
          });
          fillList(answer, zoomTo);
        })
        .catch(function () {
          // A failed request leaves the last answer on the map; the next move asks again.
        });
    }
    map.on("moveend", load);
    load();
  }

  var script = document.createElement("script");
  script.src = "/_media/vendor/leaflet-1.9.4.js";
  script.onload = function () {
    start(window.L);
  };
  document.head.appendChild(script);
})();
