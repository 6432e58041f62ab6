/* Pricing tool (/c/{token}): neighbourhood suggestions as the visitor types, from the tool's
   public autocomplete endpoint, into the input's <datalist>; the count is announced politely.
   Without this script the datalist keeps the suggestions the server rendered. */
(function () {
  var input = document.querySelector("input[data-suggest]");
  if (!input || !window.fetch) return;
  var list = document.getElementById(input.getAttribute("list"));
  var status = document.getElementById("nb-status");
  var timer, last = input.value.trim(), ctrl;
  function say(n) {
    if (!status) return;
    status.textContent = n === 0 ? input.dataset.none : n === 1 ? input.dataset.one : input.dataset.other.replace("#", String(n));
  }
  function run() {
    var q = input.value.trim();
    if (q === last) return;
    last = q;
    if (ctrl) ctrl.abort();
    ctrl = window.AbortController ? new AbortController() : null;
    fetch(input.dataset.suggest + "&q=" + encodeURIComponent(q), { signal: ctrl ? ctrl.signal : undefined, headers: { accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) {
        if (!d || !d.neighborhoods) return;
        while (list.firstChild) list.removeChild(list.firstChild);
        d.neighborhoods.forEach(function (n) {
          var o = document.createElement("option");
          o.value = n.name;
          list.appendChild(o);
        });
        say(d.neighborhoods.length);
      })
      .catch(function () {});
  }
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(run, 150);
  });
})();
