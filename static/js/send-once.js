// A form that makes something (a table, a match, tonight's match, a season) is marked
// data-send-once: a second tap while the first is on its way sends nothing, so a double
// tap on a slow connection makes one of it, not two. The form is free again when the
// page is shown from the back-forward cache, and after GIVE_UP_MS (the first may have
// been lost: the scorekeeper can try again). No inline code (CSP).
(function () {
  "use strict";
  var GIVE_UP_MS = 15000;

  function free(form) {
    form.removeAttribute("data-sending");
    form.removeAttribute("aria-busy");
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-send-once")) return;
    if (event.defaultPrevented) return;
    if (form.hasAttribute("data-sending")) {
      event.preventDefault();  // a second tap: the first is on its way
      return;
    }
    form.setAttribute("data-sending", "");
    form.setAttribute("aria-busy", "true");
    window.setTimeout(function () { free(form); }, GIVE_UP_MS);
  });

  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-send-once]").forEach(free);
  });
})();
