/* Registers the service worker that keeps this page's copy on the phone for a visit with
   no connection (static/js/offline-worker.js, served from the ledger's root: the
   script's data-worker). The pages whose copy may be kept load it (the
   partials/connection_line.html macro keeps_copy): the match page, the scorekeeper's
   and each follower's, a table's page, the big screens, a player's own page and the
   list of them ("All my tables").

   The page that registers the worker was loaded before the worker ran, so the worker
   never saw it, nor the new-hand form the page fetched (offline-entry.js), nor the
   static files it loaded: once the worker is ready, a page it did not answer asks for
   them to be kept (the worker fetches them again; the static files come from the
   browser's own cache). Browsers run service workers only in a
   secure context (https, or this computer): elsewhere nothing happens. */
(function () {
  "use strict";

  var script = document.currentScript;
  var worker = script && script.getAttribute("data-worker");
  if (!worker || !("serviceWorker" in navigator)) return;
  // Whether the worker answered this page (its navigation went through it): a page
  // opened while the worker was still starting (a big screen opened from the match page
  // a moment after its first visit) is taken over by it before this script runs, with
  // a controller but no copy, so the controller alone does not say.
  var loaded = window.performance && performance.getEntriesByType
    ? performance.getEntriesByType("navigation")[0] : null;
  var answered = loaded ? loaded.workerStart > 0 : Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.register(worker).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (registration) {
    if (!answered && registration.active) {
      var entry = document.querySelector("a[data-offline-entry]");  // its form, offline-entry.js's
      var keep = [window.location.href];
      if (entry) keep.push(entry.href);
      // and the static files it loaded (scripts, styles, the fonts of its first screen,
      // the QR code of its read-only link)
      document.querySelectorAll("script[src], link[href][rel=stylesheet], link[href][rel=preload], img[src$='/qr.svg']")
        .forEach(function (el) { keep.push(el.src || el.href); });
      registration.active.postMessage({ keep: keep });
    }
  }, function () { /* no worker (storage off, a private window): the page as before */ });
})();
