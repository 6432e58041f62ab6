/*
 * The listing and share pages' map (app/_ui/location-map.tsx): the page ships a drawing of the
 * place (the map without JavaScript); when it nears the screen, this loads Leaflet from our own
 * server and draws the same point on tiles from MAP_TILES_URL: a dot and, when the address is
 * hidden, the circle the true place lies in. Nothing is loaded on a page without a map, or before
 * the visitor scrolls near it, so the page's first paint never waits for the map.
 */
(function () {
  var figures = document.querySelectorAll("figure[data-map]");
  if (!figures.length || !("IntersectionObserver" in window)) return;
  var leaflet = null;

  function load() {
    if (leaflet) return leaflet;
    leaflet = new Promise(function (resolve, reject) {
      var css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = "/_media/vendor/leaflet-1.9.4.css";
      document.head.appendChild(css);
      var script = document.createElement("script");
      script.src = "/_media/vendor/leaflet-1.9.4.js";
      script.onload = function () {
        resolve(window.L);
      };
      script.onerror = reject;
      document.head.appendChild(script);
    });
    return leaflet;
  }

  function draw(figure, L) {
    var d = figure.dataset;
    var at = [Number(d.lat), Number(d.lng)];
    var radius = Number(d.radius) || 0;
    var brand = getComputedStyle(figure).getPropertyValue("--brand").trim() || "#0b5cad";
    var box = document.createElement("div");
    box.className = "map-live";
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", d.label || "");
    var drawing = figure.querySelector("svg");
    figure.insertBefore(box, drawing || figure.firstChild);
    if (drawing) drawing.remove();
    // Scrolling the page must not zoom the map: the wheel zooms only once the map was clicked.
    var map = L.map(box, { scrollWheelZoom: false, center: at, zoom: radius > 300 ? 14 : radius > 0 ? 15 : 16 });
    map.once("focus", function () {
      map.scrollWheelZoom.enable();
    });
    L.tileLayer(d.tiles, { attribution: d.attribution, maxZoom: 19 }).addTo(map);
    if (radius > 0) L.circle(at, { radius: radius, color: brand, weight: 2, fillColor: brand, fillOpacity: 0.16, interactive: false }).addTo(map);
    L.circleMarker(at, { radius: 8, color: "#fff", weight: 3, fillColor: brand, fillOpacity: 1, interactive: false }).addTo(map);
    figure.setAttribute("data-map-ready", "");
  }

  var watch = new IntersectionObserver(
    function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        watch.unobserve(entry.target);
        load().then(
          function (L) {
            draw(entry.target, L);
          },
          function () {
            // Leaflet did not load: the drawing stays.
          },
        );
      });
    },
    { rootMargin: "200px" },
  );
  figures.forEach(function (f) {
    watch.observe(f);
  });
})();
