/*
 * A site visitor's favourites (issue 37), as a plain script over server-rendered markup: one
 * delegated click listener instead of a React island per heart (docs/decisions.md, "Site pages
 * without a client runtime"). The page renders every heart (`button[data-fav]`) and the bar to the
 * compare view (`a[data-fav-bar]`) `hidden`, so a page without JavaScript has no control that
 * cannot work; this script reads the list, shows them and keeps them in step.
 *
 * The list lives in localStorage per site (`crm-fav:{siteId}`) with one random visitor id per
 * browser (`crm-visitor`, also sent by the chat widget and the visit booking). Every change is
 * synced to `POST /api/sites/{siteId}/visitors/{visitorId}/favourites`, so that when the visitor
 * identifies (lead form, chat, saved search, booking) the agency finds what they liked.
 * `window.crmVisitor` lets the page's other scripts read the id and identify the visitor.
 */
(function () {
  var root = document.querySelector("[data-site-id]");
  if (!root) return;
  var siteId = root.getAttribute("data-site-id");
  var ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  var MAX = 50;
  var KEY = "crm-fav:" + siteId;
  var timer = null;

  function read() {
    try {
      var s = JSON.parse(localStorage.getItem(KEY) || "null") || {};
      var ids = Array.isArray(s.ids)
        ? s.ids
            .filter(function (v) {
              return typeof v === "string" && ID.test(v);
            })
            .slice(0, MAX)
        : [];
      return { ids: ids, synced: Boolean(s.synced), identified: Boolean(s.identified) };
    } catch (_) {
      return { ids: [] };
    }
  }

  function write(s) {
    try {
      localStorage.setItem(KEY, JSON.stringify(s));
    } catch (_) {
      /* private mode: this page only */
    }
    paint();
  }

  function visitorId() {
    var id = null;
    try {
      id = localStorage.getItem("crm-visitor");
    } catch (_) {
      /* no storage */
    }
    if (id && ID.test(id)) return id;
    id = crypto.randomUUID();
    try {
      localStorage.setItem("crm-visitor", id);
    } catch (_) {
      /* this page only */
    }
    return id;
  }

  /** Hearts pressed or not, the bar's count and link; shown once the list is read. */
  function paint() {
    var ids = read().ids;
    document.querySelectorAll("button[data-fav]").forEach(function (b) {
      b.setAttribute("aria-pressed", ids.indexOf(b.getAttribute("data-fav")) >= 0 ? "true" : "false");
      b.hidden = false;
    });
    document.querySelectorAll("a[data-fav-bar]").forEach(function (a) {
      a.hidden = ids.length === 0;
      a.href = a.getAttribute("data-href") + "?ids=" + ids.slice(0, 4).join(",");
      var text = a.querySelector("[data-fav-count]");
      if (text) text.textContent = a.getAttribute(ids.length === 1 ? "data-one" : "data-other").replace("{n}", String(ids.length));
    });
  }

  /**
   * Sends the list (and what was compared or viewed). A visitor with nothing to say sends nothing.
   * A listing the site no longer shows (400 `listing_not_available` naming `field.N`) leaves the
   * list and the rest is sent again, once.
   */
  function sync(extra, retried) {
    extra = extra || {};
    var s = read();
    if (!s.ids.length && !s.synced && !(extra.viewed && extra.viewed.length) && !(extra.compared && extra.compared.length)) return Promise.resolve();
    var body = { listingIds: s.ids };
    if (extra.viewed) body.viewed = extra.viewed;
    if (extra.compared) body.compared = extra.compared;
    return fetch("/api/sites/" + siteId + "/visitors/" + visitorId() + "/favourites", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      keepalive: true,
    })
      .then(function (res) {
        return res
          .json()
          .catch(function () {
            return null;
          })
          .then(function (answer) {
            if (res.ok) {
              var now = read();
              now.synced = true;
              if (answer && answer.identified) now.identified = true;
              write(now);
              return;
            }
            var err = answer && answer.error;
            var m = err && err.code === "listing_not_available" ? /`(listingIds|viewed|compared)\.(\d+)`/.exec(err.message || "") : null;
            if (!m || retried) return;
            var list = m[1] === "listingIds" ? s.ids : extra[m[1]] || [];
            var gone = list[Number(m[2])];
            var left = read();
            left.ids = left.ids.filter(function (x) {
              return x !== gone;
            });
            write(left);
            var rest = {};
            ["viewed", "compared"].forEach(function (k) {
              if (extra[k])
                rest[k] = extra[k].filter(function (x) {
                  return x !== gone;
                });
            });
            return sync(rest, true);
          });
      })
      .catch(function () {
        /* offline: the next change syncs */
      });
  }

  function toggle(id) {
    var s = read();
    s.ids =
      s.ids.indexOf(id) >= 0
        ? s.ids.filter(function (x) {
            return x !== id;
          })
        : [id].concat(s.ids).slice(0, MAX);
    write(s);
    clearTimeout(timer);
    timer = setTimeout(function () {
      sync();
    }, 800);
  }

  /** The visitor sends a form with its id: it is identified from now on, and the list goes first. */
  function identify() {
    clearTimeout(timer);
    var s = read();
    s.identified = true;
    write(s);
    sync();
  }

  window.crmVisitor = { id: visitorId, identify: identify };

  document.addEventListener("click", function (e) {
    var b = e.target instanceof Element ? e.target.closest("button[data-fav]") : null;
    if (b) toggle(b.getAttribute("data-fav"));
  });
  // Another tab changed the list.
  window.addEventListener("storage", function (e) {
    if (e.key === KEY) paint();
  });

  // The lead form's hidden visitor id (empty without JavaScript): sending it identifies the visitor.
  document.querySelectorAll("input[data-visitor-id]").forEach(function (input) {
    input.value = visitorId();
    if (input.form) input.form.addEventListener("submit", identify);
  });

  // What this page tells the agency once: the listings compared here, or a listing page opened by an identified visitor.
  var signal = document.querySelector("[data-visitor-signal]");
  if (signal) {
    var compared = signal.getAttribute("data-compared");
    var viewed = signal.getAttribute("data-viewed");
    if (compared) sync({ compared: compared.split(",") });
    else if (viewed && read().identified) sync({ viewed: [viewed] });
  }

  paint();
})();
