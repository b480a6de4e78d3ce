/* Says, quietly, when a page's poll cannot reach the ledger and when it can again: the
   big screen (templates/screen/base.html) and the match page, the scorekeeper's and each
   follower's (templates/match/show.html), whose figures would otherwise stand there as
   if current while the phone has no connection. The line is #connection; data-poll
   names the element htmx polls with; data-text-lost and data-text-back are its words,
   in the page's language. What it said last is on <html> for whoever checks it:
   data-connection="lost|back". Nothing here needs a tap; polling itself is htmx's. */
(function () {
  "use strict";

  var BACK_SECONDS = 6; // how long "connected again" stays before the line goes quiet
  var root = document.documentElement;
  var lost = false;
  var backTimer = null;

  function line() { return document.getElementById("connection"); }

  function say(state) {
    var el = line();
    if (!el) return;
    el.classList.toggle("is-lost", state === "lost");
    el.classList.toggle("is-back", state === "back");
    el.textContent = state ? el.getAttribute("data-text-" + state) : "";
    if (state) root.setAttribute("data-connection", state);
  }

  function isPoll(event) {
    var elt = event.detail && event.detail.elt;
    var el = line();
    return elt && el && elt.id === el.getAttribute("data-poll");
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

  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:afterRequest", answered);
})();
