/* The match on a big screen (templates/screen/page.html). htmx polls the part that
   follows the match; this script says, quietly, when that poll cannot reach the ledger
   and when it can again, fits a table's season standings to their place, and keeps the
   screen awake where the browser allows it
   (the Screen Wake Lock API: https or this computer only, and not in every browser).
   Nothing here needs a tap. What it did is on <html> for whoever checks it:
   data-connection="lost|back", data-wake-lock="held|refused|unavailable". */
(function () {
  "use strict";

  var BACK_SECONDS = 6; // how long "connected again" stays before the line goes quiet
  var root = document.documentElement;
  var lost = false;
  var backTimer = null;

  function say(state) {
    var line = document.getElementById("connection");
    if (!line) return;
    line.classList.toggle("is-lost", state === "lost");
    line.classList.toggle("is-back", state === "back");
    line.textContent = state ? line.getAttribute("data-text-" + state) : "";
    if (state) root.setAttribute("data-connection", state);
  }

  function isPoll(event) {
    var elt = event.detail && event.detail.elt;
    return elt && elt.id === "screen-live";
  }

  function failed(event) {
    if (!isPoll(event) || lost) return;
    lost = true;
    clearTimeout(backTimer);
    say("lost");
  }

  function answered(event) {
    if (!isPoll(event) || !event.detail.successful || !lost) return;
    lost = false;
    say("back");
    backTimer = setTimeout(function () { say(""); }, BACK_SECONDS * 1000);
  }

  // A table's season standings (templates/table/_screen_live.html) keep each line 5 % of
  // the height or more, so beside a crowded night and its settle-up they may not all fit:
  // the last lines are hidden, and one line says how many.
  function fitSeason() {
    var area = document.querySelector(".screen-season");
    var more = area && area.querySelector(".season-more");
    if (!more) return;
    var lines = area.querySelectorAll(".season-line");
    lines.forEach(function (line) { line.hidden = false; });
    more.hidden = true;
    var overflows = function () { return area.scrollHeight > area.clientHeight + 1; };
    if (!overflows()) return;
    more.hidden = false;
    var hidden = 0;
    for (var shown = lines.length - 1; shown >= 1 && overflows(); shown--) {
      lines[shown].hidden = true;
      hidden += 1;
      more.firstElementChild.textContent = lines[shown].getAttribute("data-rest");
    }
    more.hidden = hidden === 0;
  }
  // Each new part as htmx puts it in, again once it has settled, and once more at the
  // next frame, when its layout is surely the final one.
  document.addEventListener("htmx:load", fitSeason);
  document.addEventListener("htmx:afterSettle", function () {
    fitSeason();
    window.requestAnimationFrame(fitSeason);
  });
  window.addEventListener("resize", fitSeason);
  if (document.fonts) document.fonts.ready.then(fitSeason);
  fitSeason();

  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:afterRequest", answered);

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
