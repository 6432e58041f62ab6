/* Web chat launcher: loads the chat (/chat/widget.js) the first time its button is used, so a
   page that carries the chat pays nothing for it until then. */
(function () {
  var root = document.getElementById("wc");
  var button = root && root.querySelector("[data-wc-open]");
  if (!button) return;
  var loading = false;
  button.addEventListener("click", function () {
    if (window.__wcOpen) return window.__wcOpen();
    if (loading) return;
    loading = true;
    var s = document.createElement("script");
    s.src = "/chat/widget.js";
    s.onload = function () { if (window.__wcOpen) window.__wcOpen(); };
    s.onerror = function () { loading = false; };
    document.head.appendChild(s);
  });
})();
