/* Web chat (loaded by /chat/launcher.js when the visitor opens it). A dialog panel with the
   conversation as a polite live region, an optional contact (with consent it becomes a lead), and
   a message box; messages go to the page's chat API, replies arrive over Server-Sent Events read
   with fetch (EventSource cannot send the session token). The session token stays in this
   browser's localStorage, per chat. Keyboard: the open panel keeps Tab inside it (a modal dialog),
   Escape closes it and gives focus back to the button; Enter sends, Shift+Enter adds a line. */
(function () {
  var root = document.getElementById("wc");
  if (!root || window.__wcOpen) return;
  var api = root.getAttribute("data-api");
  var T = JSON.parse(root.getAttribute("data-text") || "{}");
  var online = root.getAttribute("data-online") === "1";
  var opener = root.querySelector("[data-wc-open]");
  var storeKey = "wc:" + api;
  var state = load();
  var seen = {};
  var panel, log, text, status, contact, form, streaming = false, streamCtl = null;

  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey) || "null") || {}; } catch (e) { return {}; }
  }
  function save() {
    try { localStorage.setItem(storeKey, JSON.stringify(state)); } catch (e) { /* private mode: this page only */ }
  }
  function el(tag, attrs, kids) {
    var n = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === "text") n.textContent = attrs[k];
      else n.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { n.appendChild(c); });
    return n;
  }
  function uid() {
    return window.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(36).slice(2);
  }

  var CSS =
    ".wc-panel{position:fixed;right:16px;bottom:76px;z-index:51;width:min(360px,calc(100vw - 32px));max-height:min(560px,calc(100vh - 96px));" +
    "display:flex;flex-direction:column;background:#fff;color:#1a1a1a;border-radius:12px;box-shadow:0 8px 28px rgba(0,0,0,.28);font:15px/1.4 system-ui,sans-serif}" +
    ".wc-panel[hidden]{display:none}.wc-head{display:flex;align-items:center;justify-content:space-between;gap:8px;padding:10px 12px;" +
    "background:var(--brand,#0b5cad);color:var(--on-brand,#fff);border-radius:12px 12px 0 0}.wc-head h2{margin:0;font-size:16px}" +
    ".wc-x{min-width:44px;min-height:44px;border:0;background:transparent;color:inherit;font-size:24px;cursor:pointer}" +
    ".wc-note{margin:0;padding:8px 12px;background:#f3f4f6;font-size:14px}.wc-log{list-style:none;margin:0;padding:8px 12px;overflow-y:auto;flex:1;min-height:96px}" +
    ".wc-log>p{margin:6px 0;max-width:85%;padding:6px 10px;border-radius:10px;background:#eef2f7;white-space:pre-wrap;overflow-wrap:anywhere}" +
    ".wc-log>p.me{margin-left:auto;background:#dbeafe}.wc-who{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}" +
    ".wc-form{padding:8px 12px 12px;border-top:1px solid #e5e7eb}.wc-form label{display:block;font-size:14px;margin:6px 0 2px}" +
    ".wc-form input[type=text],.wc-form input[type=email],.wc-form input[type=tel],.wc-form textarea{box-sizing:border-box;width:100%;min-height:40px;padding:6px 8px;border:1px solid #6b7280;border-radius:6px;font:inherit}" +
    ".wc-form summary{cursor:pointer;min-height:32px;font-size:14px}.wc-consent{display:flex;gap:6px;align-items:flex-start;font-size:13px}" +
    ".wc-send{margin-top:8px;min-height:44px;width:100%;border:0;border-radius:8px;background:var(--brand,#0b5cad);color:var(--on-brand,#fff);font:600 15px system-ui,sans-serif;cursor:pointer}" +
    "#wc[data-raised] .wc-panel{bottom:144px;max-height:min(560px,calc(100vh - 164px))}.wc-status{min-height:1.2em;margin:4px 0 0;font-size:13px;color:#9a3412}.wc-panel :focus-visible{outline:3px solid #111;outline-offset:2px}";

  function build() {
    document.head.appendChild(el("style", { text: CSS }));
    var close = el("button", { type: "button", class: "wc-x", "aria-label": T.close, text: "×" });
    close.addEventListener("click", hide);
    log = el("div", { class: "wc-log", role: "log", "aria-live": "polite", "aria-label": T.log, tabindex: "0" });
    text = el("textarea", { id: "wc-text", rows: "2", maxlength: "2000", required: "" });
    status = el("p", { class: "wc-status", role: "status", "aria-live": "polite" });
    contact = el("details", { class: "wc-contact" }, [
      el("summary", { text: T.contact }),
      el("label", { for: "wc-name", text: T.name }), el("input", { id: "wc-name", type: "text", autocomplete: "name", maxlength: "120" }),
      el("label", { for: "wc-email", text: T.email }), el("input", { id: "wc-email", type: "email", autocomplete: "email", maxlength: "200" }),
      el("label", { for: "wc-phone", text: T.phone }), el("input", { id: "wc-phone", type: "tel", autocomplete: "tel", maxlength: "40" }),
      el("label", { class: "wc-consent" }, [el("input", { id: "wc-consent", type: "checkbox" }), document.createTextNode(T.consent)]),
    ]);
    if (state.token) contact.hidden = true;
    form = el("form", { class: "wc-form", novalidate: "" }, [
      contact,
      el("label", { for: "wc-text", text: T.message }), text,
      el("button", { type: "submit", class: "wc-send", text: T.send }), status,
    ]);
    form.addEventListener("submit", function (e) { e.preventDefault(); submit(); });
    text.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); submit(); }
    });
    panel = el("div", { id: "wc-panel", class: "wc-panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "wc-title", hidden: "" }, [
      el("div", { class: "wc-head" }, [el("h2", { id: "wc-title", text: T.title }), close]),
      el("p", { class: "wc-note", text: online ? T.greeting : T.offline }),
      log, form,
    ]);
    panel.addEventListener("keydown", function (e) {
      if (e.key === "Escape") return hide();
      if (e.key === "Tab") trap(e);
    });
    root.appendChild(panel);
  }

  /* The open panel is a modal dialog: Tab and Shift+Tab cycle through its own controls. */
  function trap(e) {
    var all = panel.querySelectorAll("button,summary,input,textarea,[tabindex='0']"), live = [];
    for (var i = 0; i < all.length; i++) if (!all[i].disabled && all[i].getClientRects().length) live.push(all[i]);
    if (!live.length) return;
    var first = live[0], last = live[live.length - 1];
    if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  }

  function show() {
    if (!panel) build();
    panel.hidden = false;
    opener.setAttribute("aria-expanded", "true");
    text.focus();
    if (state.token && !streaming) { history(); stream(); }
  }
  function hide() {
    panel.hidden = true;
    opener.setAttribute("aria-expanded", "false");
    opener.focus();
  }

  function add(m) {
    if (seen[m.id]) return;
    seen[m.id] = true;
    var mine = m.direction === "inbound";
    var li = el("p", { class: mine ? "me" : "" }, [el("span", { class: "wc-who", text: (mine ? T.you : T.agency) + ": " }), document.createTextNode(m.text || "")]);
    log.appendChild(li);
    log.scrollTop = log.scrollHeight;
    state.last = m.id;
    save();
  }

  function call(method, path, body) {
    var headers = { "content-type": "application/json", accept: "application/json" };
    if (state.token) headers.authorization = "Bearer " + state.token;
    return fetch(api + path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined });
  }

  /* The listing this page shows: the share link's (on the launcher), or the site page's. */
  function listingOfPage() {
    var own = root.getAttribute("data-listing");
    var marked = document.querySelector("[data-listing-id]");
    return own || (marked && marked.getAttribute("data-listing-id")) || undefined;
  }

  /* On a site (not a share page), the browser's visitor id (the favourites island keeps it): the deal gets the visitor's favourites. */
  function visitorOfSite() {
    if (!/^\/api\/sites\/[0-9a-f-]{36}\/chat$/i.test(api)) return undefined;
    var id = null;
    try { id = localStorage.getItem("crm-visitor"); } catch (e) { return undefined; }
    if (!/^[0-9a-f-]{36}$/i.test(id || "") && window.crypto && crypto.randomUUID) {
      id = crypto.randomUUID();
      try { localStorage.setItem("crm-visitor", id); } catch (e) { return undefined; }
    }
    return id || undefined;
  }

  function openSession() {
    var v = function (id) { var n = document.getElementById(id); return n && n.value.trim() ? n.value.trim() : undefined; };
    var body = { name: v("wc-name"), email: v("wc-email"), phone: v("wc-phone"), consent: document.getElementById("wc-consent").checked,
      pageUrl: location.href.slice(0, 2000), locale: root.getAttribute("data-locale") || undefined, listingId: listingOfPage(), visitorId: visitorOfSite() };
    state = {};
    return call("POST", "/sessions", body).then(function (r) {
      return r.json().then(function (j) {
        if (r.status !== 201) throw new Error(r.status === 429 ? T.limited : (j.error && j.error.message) || T.failed);
        state = { token: j.sessionToken };
        online = j.online;
        save();
        contact.hidden = true;
        stream();
      });
    });
  }

  function submit() {
    var value = text.value;
    if (!value.trim()) return text.focus();
    status.textContent = T.sending;
    var payload = { text: value.slice(0, 2000), clientMessageId: uid() };
    var send = function (retry) {
      return call("POST", "/messages", payload).then(function (r) {
        if (r.status === 401 && retry) return openSession().then(function () { return send(false); });
        return r.json().then(function (j) {
          if (r.status !== 201) throw new Error(r.status === 429 ? T.limited : (j.error && j.error.message) || T.failed);
          add(j.message);
          text.value = "";
          status.textContent = "";
        });
      });
    };
    (state.token ? send(true) : openSession().then(function () { return send(false); })).catch(function (e) {
      status.textContent = e && e.message ? e.message : T.failed;
    });
  }

  function history() {
    call("GET", "/messages").then(function (r) {
      if (r.status === 401) { state = {}; save(); contact.hidden = false; return; }
      return r.json().then(function (j) { (j.messages || []).forEach(add); });
    }).catch(function () {});
  }

  /* Server-Sent Events over fetch; reconnects from the last message after 2 s when the stream ends. */
  function stream() {
    if (streaming || !state.token || !window.ReadableStream) return;
    streaming = true;
    streamCtl = window.AbortController ? new AbortController() : null;
    var q = state.last ? "?after=" + encodeURIComponent(state.last) : "";
    fetch(api + "/stream" + q, { headers: { authorization: "Bearer " + state.token, accept: "text/event-stream" }, signal: streamCtl && streamCtl.signal })
      .then(function (r) {
        if (r.status === 401) { state = {}; save(); throw new Error("session"); }
        if (!r.ok || !r.body) throw new Error("stream");
        var reader = r.body.getReader(), decoder = new TextDecoder(), buf = "";
        var pump = function () {
          return reader.read().then(function (c) {
            if (c.done) return;
            buf += decoder.decode(c.value, { stream: true });
            var i;
            while ((i = buf.indexOf("\n\n")) >= 0) {
              var block = buf.slice(0, i), data = /^data: (.*)$/m.exec(block);
              buf = buf.slice(i + 2);
              if (data) { try { add(JSON.parse(data[1])); } catch (e) { /* a partial line never reaches here */ } }
            }
            return pump();
          });
        };
        return pump();
      })
      .catch(function () {})
      .then(function () {
        streaming = false;
        if (state.token) setTimeout(stream, 2000);
      });
  }

  window.__wcOpen = function () { if (panel && !panel.hidden) hide(); else show(); };
})();
