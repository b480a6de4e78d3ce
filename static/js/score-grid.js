// The hand-by-hand grid opens at its newest hands (app.css: .scores-wrap), the names and
// the totals held beside them. The hands in sight seldom fill that room exactly: the
// next older one was cut in two under the totals, and what showed of its figure read
// as a figure of its own ("+52 ★" as "2 ★"). The hands in sight are widened to fill the
// room, so that the one before them is under the totals whole. Done again when the
// match page's poll brings a new grid, and when the screen turns.
(function () {
  "use strict";

  function fit(wrap) {
    var heads = Array.prototype.slice.call(wrap.querySelectorAll("thead .hand-col"));
    heads.forEach(function (head) { head.style.minWidth = ""; });
    var names = wrap.querySelector("thead .player-col");
    var totals = wrap.querySelector("thead .total-col");
    if (!heads.length || !names || !totals || wrap.scrollWidth <= wrap.clientWidth) return;
    var room = wrap.clientWidth - names.getBoundingClientRect().width
      - totals.getBoundingClientRect().width;
    var widths = heads.map(function (head) { return head.getBoundingClientRect().width; });
    var used = 0;
    var whole = 0;
    for (var i = widths.length - 1; i >= 0 && used + widths[i] <= room + 0.5; i--) {
      used += widths[i];
      whole += 1;
    }
    if (!whole || room - used < 0.5) return;  // one hand wider than the room, or a fit
    var more = (room - used) / whole;
    for (var j = widths.length - whole; j < widths.length; j++) {
      heads[j].style.minWidth = widths[j] + more + "px";
    }
  }

  function fitAll() {
    Array.prototype.forEach.call(document.querySelectorAll(".scores-wrap"), fit);
  }

  function start() {
    fitAll();
    if (document.fonts) document.fonts.ready.then(fitAll);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  // The poll's swap replaces the element it settles on: the grid is looked for anew.
  document.addEventListener("htmx:afterSettle", fitAll);
  var turned = null;
  window.addEventListener("resize", function () {
    clearTimeout(turned);
    turned = setTimeout(fitAll, 100);
  });
})();
