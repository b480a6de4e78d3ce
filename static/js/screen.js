/* The match on a big screen (templates/screen/page.html). htmx polls the part that
   follows the match (connection.js says when that poll cannot reach the ledger); this
   script fits the parts whose least lines may give way (a table's season standings, the
   payments, tonight's awards) to their places, and keeps the screen awake where the
   browser allows it (the Screen Wake Lock API: https or this computer only, and not in
   every browser). Nothing here needs a tap. What it did is on <html> for whoever checks
   it: data-wake-lock="held|refused|unavailable". */
(function () {
  "use strict";

  var root = document.documentElement;

  // The parts of a screen whose least lines give way when they do not all fit ([data-fit]:
  // a table's season standings, the payments, tonight's awards), each line at least 5 %
  // of the height or read at the screen's smallest size. A line that may go carries
  // data-give-way (1: the first to go) and data-rest (what the part's .fit-more line says
  // when it is the last gone: "and 3 more"); the others stay. Every part is shown whole
  // again first, then each in turn loses lines until it fits, as the parts' places
  // depend on one another's lines (a table's season standings and its payments share
  // a column).
  function fitAll() {
    var areas = document.querySelectorAll("[data-fit]");
    areas.forEach(function (area) {
      area.querySelectorAll("[data-give-way]").forEach(function (line) { line.hidden = false; });
      var more = area.querySelector(".fit-more");
      if (more) more.hidden = true;
    });
    areas.forEach(fit);
  }

  function fit(area) {
    var more = area.querySelector(".fit-more");
    var overflows = function () { return area.scrollHeight > area.clientHeight + 1; };
    if (!more || !overflows()) return;
    var lines = Array.prototype.slice.call(area.querySelectorAll("[data-give-way]"));
    lines.sort(function (a, b) { return a.dataset.giveWay - b.dataset.giveWay; });
    more.hidden = false;
    var hidden = 0;
    for (; hidden < lines.length && overflows(); hidden++) {
      lines[hidden].hidden = true;
      (more.firstElementChild || more).textContent = lines[hidden].dataset.rest;
    }
    more.hidden = hidden === 0;
  }
  // Each new part as htmx puts it in, again once it has settled, and once more at the
  // next frame, when its layout is surely the final one.
  document.addEventListener("htmx:load", fitAll);
  document.addEventListener("htmx:afterSettle", function () {
    fitAll();
    window.requestAnimationFrame(fitAll);
  });
  window.addEventListener("resize", fitAll);
  // And whenever a font has come: a face is fetched only once a layout needs it, so on a
  // slow line (a TV's) the Devanagari may arrive after fonts.ready has answered, and the
  // parts fitted with a stand-in font's widths would stay so.
  if (document.fonts) {
    document.fonts.ready.then(fitAll);
    document.fonts.addEventListener("loadingdone", fitAll);
  }
  fitAll();

  // The wake lock goes when the page is hidden; it is asked for again when it shows.
  var lock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator)) {
      root.setAttribute("data-wake-lock", "unavailable");
      return;
    }
    if (lock !== null || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      root.setAttribute("data-wake-lock", "held");
      sentinel.addEventListener("release", function () {
        lock = null;
        root.setAttribute("data-wake-lock", "released");
      });
    }, function () {
      root.setAttribute("data-wake-lock", "refused");
    });
  }
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();
})();
