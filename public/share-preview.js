/* Brokers' share preview (/preview/share): each change of the draft form re-renders the preview
   iframe at once (the same GET the form submits without JavaScript), keeps the address bar and
   the save form's hidden copies of the draft in step. */
(function () {
  var form = document.getElementById("draft");
  var frame = document.getElementById("preview");
  var link = document.getElementById("preview-link");
  var save = document.getElementById("save");
  if (!form || !frame) return;
  var timer;
  function refresh() {
    var q = new URLSearchParams(new FormData(form));
    frame.src = "/preview/share/frame?" + q.toString();
    if (link) link.href = frame.src;
    history.replaceState(null, "", "/preview/share?" + q.toString());
    if (save) q.forEach(function (v, k) {
      var input = save.querySelector('input[type=hidden][name="' + k + '"]');
      if (input) input.value = v;
    });
  }
  function later() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  }
  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();
