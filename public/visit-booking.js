/*
 * The listing page's visit booking (app/site-render/_site/components/visit-booking.tsx renders the
 * section and its texts). A plain script, no client component: it asks the free slots only when
 * the section nears the screen, is focused, or the browser is idle after the page loaded, so the
 * page's first paint and main thread never wait for it. The form is built once; choosing a day or
 * a time changes only the chips, so what the visitor typed stays.
 */
(function () {
  var section = document.querySelector("section[data-visit-api]");
  if (!section) return;
  var base = section.getAttribute("data-visit-api");
  var locale = section.getAttribute("data-locale") || "pt-BR";
  var L = JSON.parse(section.getAttribute("data-labels") || "{}");
  var body = section.querySelector("[data-visit-body]");
  var slots = [];
  var zone;
  var day = "";
  var chosen = "";
  var fmt = {};
  var form = null;
  var started = false;

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (attrs[k] !== false && attrs[k] != null) e.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
    });
    (children || []).forEach(function (c) {
      if (c) e.appendChild(c);
    });
    return e;
  }
  function show(node) {
    body.replaceChildren(node);
  }
  /** `Sexta-feira, 28 de novembro`: only the first letter raised (CSS `capitalize` would raise every word). */
  function firstUpper(s) {
    return s.charAt(0).toLocaleUpperCase(locale) + s.slice(1);
  }
  function formats() {
    var tz = zone ? { timeZone: zone } : {};
    fmt.day = new Intl.DateTimeFormat(locale, Object.assign({ weekday: "long", day: "numeric", month: "long" }, tz));
    fmt.chip = new Intl.DateTimeFormat(locale, Object.assign({ weekday: "short", day: "numeric" }, tz));
    fmt.time = new Intl.DateTimeFormat(locale, Object.assign({ hour: "2-digit", minute: "2-digit" }, tz));
    fmt.zoneName = "";
    if (zone) {
      var part = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "longGeneric" }).formatToParts(new Date()).find(function (p) {
        return p.type === "timeZoneName";
      });
      fmt.zoneName = part ? part.value : zone;
    }
  }
  /** The slots by day, in order: [[dayName, [slot…]]…]. */
  function byDay() {
    var out = [];
    slots.forEach(function (s) {
      var key = fmt.day.format(new Date(s.start));
      var last = out[out.length - 1];
      if (last && last[0] === key) last[1].push(s);
      else out.push([key, [s]]);
    });
    return out;
  }

  function load() {
    // A fresh list each time (the public cache would keep a just-taken slot for a minute).
    return fetch(base + "/visit-slots?days=14", { cache: "no-store" })
      .then(function (res) {
        return res.ok ? res.json() : { slots: [] };
      })
      .catch(function () {
        return { slots: [] };
      })
      .then(function (answer) {
        zone = answer.timezone || undefined;
        slots = answer.slots || [];
        formats();
        if (!slots.length) {
          form = null;
          return show(el("p", { class: "muted", text: L.none }));
        }
        if (!form) build();
        paintSlots();
      });
  }

  /** The day buttons and the chosen day's times. */
  function paintSlots() {
    var days = byDay();
    var current = days.some(function (d) {
      return d[0] === day;
    })
      ? day
      : days[0][0];
    var dayRow = form.querySelector(".slot-days");
    dayRow.replaceChildren.apply(
      dayRow,
      days.map(function (d) {
        var b = el("button", { type: "button", class: d[0] === current ? "slot-daybtn on" : "slot-daybtn", "aria-pressed": String(d[0] === current), "aria-label": firstUpper(d[0]), text: firstUpper(fmt.chip.format(new Date(d[1][0].start))) });
        b.addEventListener("click", function () {
          day = d[0];
          paintSlots();
          b = form.querySelector('.slot-daybtn[aria-pressed="true"]');
          if (b) b.focus();
        });
        return b;
      }),
    );
    form.querySelector(".slot-day").textContent = firstUpper(current);
    var times = form.querySelector(".slot-times");
    var list = days.filter(function (d) {
      return d[0] === current;
    })[0][1];
    times.replaceChildren.apply(
      times,
      list.map(function (s) {
        var input = el("input", { type: "radio", name: "slot", value: s.start });
        input.checked = chosen === s.start;
        input.addEventListener("change", function () {
          chosen = s.start;
          times.querySelectorAll(".slot").forEach(function (l) {
            l.className = l.querySelector("input").checked ? "slot on" : "slot";
          });
        });
        var label = el("label", { class: chosen === s.start ? "slot on" : "slot" }, [input]);
        label.appendChild(document.createTextNode(fmt.time.format(new Date(s.start))));
        return label;
      }),
    );
  }

  function field(text, input) {
    var label = el("label", {}, []);
    label.appendChild(document.createTextNode(text));
    label.appendChild(input);
    return label;
  }

  function build() {
    var consent = el("label", { class: "consent" }, [el("input", { type: "checkbox", name: "consent", required: true })]);
    consent.appendChild(document.createTextNode(L.consent));
    var zoneLine = zone
      ? el("p", { class: "muted small", style: "margin:0", text: L.zone.replace("{zone}", fmt.zoneName).replace("{city}", (zone.split("/").pop() || zone).replace(/_/g, " ")) })
      : null;
    form = el("form", { class: "form", novalidate: true }, [
      el("p", { class: "muted", style: "margin:0", text: L.intro }),
      zoneLine,
      el("fieldset", { class: "slot-days", "aria-label": L.day }),
      el("fieldset", { class: "slots" }, [el("legend", { text: L.chooseTime }), el("p", { class: "slot-day" }), el("div", { class: "slot-times" })]),
      field(L.name, el("input", { name: "name", autocomplete: "name", required: true, maxlength: "120" })),
      field(L.phone, el("input", { name: "phone", type: "tel", autocomplete: "tel", required: true, maxlength: "40" })),
      field(L.email, el("input", { name: "email", type: "email", autocomplete: "email", maxlength: "200" })),
      field(L.note, el("textarea", { name: "note", rows: "2", maxlength: "1000" })),
      consent,
      el("p", { class: "notice err", role: "alert", hidden: true }),
      el("button", { class: "btn", type: "submit", text: L.book }),
    ]);
    form.addEventListener("submit", submit);
    show(form);
  }

  function error(text) {
    var p = form.querySelector("p.err");
    p.textContent = text;
    p.hidden = false;
  }

  function submit(e) {
    e.preventDefault();
    var f = new FormData(form);
    var button = form.querySelector('button[type="submit"]');
    if (!chosen) return error(L.chooseTime);
    form.querySelector("p.err").hidden = true;
    button.disabled = true;
    button.textContent = L.booking;
    var email = String(f.get("email") || "").trim();
    var note = String(f.get("note") || "").trim();
    var contact = { name: String(f.get("name") || "").trim(), phone: String(f.get("phone") || "").trim() };
    if (email) contact.email = email;
    var payload = { start: chosen, contact: contact, consent: f.get("consent") === "on", locale: locale };
    if (note) payload.note = note;
    // The browser's visitor id (public/favourites.js): the deal gets the visitor's favourites.
    if (window.crmVisitor) payload.visitorId = window.crmVisitor.id();
    var when = chosen;
    function done() {
      button.disabled = false;
      button.textContent = L.book;
    }
    fetch(base + "/visits", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) })
      .then(function (res) {
        if (res.status === 201) {
          var text = fmt.day.format(new Date(when)) + ", " + fmt.time.format(new Date(when)) + (fmt.zoneName ? " (" + fmt.zoneName + ")" : "");
          if (window.crmVisitor) window.crmVisitor.identify();
          form = null;
          return show(el("p", { class: "notice", role: "status", text: L.booked.replace("{when}", text) }));
        }
        done();
        if (res.status === 409) {
          chosen = "";
          error(L.taken);
          return load();
        }
        if (res.status === 429) return error(L.limited);
        if (res.status === 400)
          return res
            .json()
            .catch(function () {
              return null;
            })
            .then(function (b) {
              error((L.invalid + " " + ((b && b.error && b.error.message) || "")).trim());
            });
        error(L.failed);
      })
      .catch(function () {
        done();
        error(L.failed);
      });
  }

  function start() {
    if (started) return;
    started = true;
    watch.disconnect();
    load();
  }
  var watch = new IntersectionObserver(
    function (entries) {
      if (
        entries.some(function (x) {
          return x.isIntersecting;
        })
      )
        start();
    },
    { rootMargin: "600px" },
  );
  watch.observe(section);
  section.addEventListener("focusin", start);
  // Not scrolled to: the slots come once the page has loaded and the browser is idle.
  function later() {
    if ("requestIdleCallback" in window) requestIdleCallback(start, { timeout: 4000 });
    else setTimeout(start, 2000);
  }
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later);
})();
