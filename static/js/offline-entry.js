/* "Enter hand N" with no connection (templates/match/_live.html, the editor's match page).

   A table's Wi-Fi drops often; the hand form's queue (hand-queue.js) keeps the hands
   typed meanwhile, but only a form already open could take them: the link, tapped
   offline, left the page for the browser's own error page. So the editor's match page
   fetches the new-hand form its link opens (once loaded, and again when the poll brings
   another hand number) and keeps it in this page's memory, never in the phone's
   storage: nothing of it outlives the page. Tapped with no connection (the browser
   offline, or the page's poll unanswered), the link shows that form in the page's place; hand-queue.js then gives it a key of its
   own and, after hands kept on this phone, the next hand's number, dealer and who sits
   out ("ledger:page-shown"). Its "← match" link, still offline, puts the match page
   back as it was. Online, the links go as usual.

   The copy in this page's memory is what a page loaded online uses. A match page opened
   with no connection at all is the phone's copy of it (static/js/offline-worker.js),
   and so is the form this script then fetches: the worker keeps the form only for this
   fetch, never as a page of its own, and hand-queue.js gives it a key of its own before
   it takes a hand (a kept key used twice would make two hands one). A follower's page
   has neither the link nor this script. No inline code (CSP): everything is delegated
   from the document. */
(function () {
  "use strict";

  var copy = null;     // the form page's HTML, as fetched
  var copyOf = null;   // the link's words it was fetched for ("Enter hand 5")
  var kept = false;    // the copy is the phone's (the worker's), with the token of its day
  var fetching = false;

  function link() { return document.querySelector("a[data-offline-entry]"); }

  // Fetch the form the link opens, unless the copy is of this very link already. A
  // finished match's link redirects: nothing is kept then.
  function refresh() {
    var a = link();
    if (!a || fetching || copyOf === a.textContent) return;
    fetching = true;
    var label = a.textContent;
    window.fetch(a.href, {
      credentials: "same-origin",
      cache: "no-store",
      redirect: "manual",
      // Its answer sets no session cookie (ledger/http/security.py): arriving after a
      // write of this page (an undo), an older cookie would take back what it kept.
      headers: { "X-Ledger-Background": "1" }
    })
      .then(function (answer) {
        kept = answer.headers.has("X-Ledger-Kept");
        return answer.status === 200 ? answer.text() : null;
      })
      .then(function (html) {
        fetching = false;
        if (html === null) return;
        copy = html;
        copyOf = label;
      }, function () {
        fetching = false;  // offline already: the next poll that answers tries again
      });
  }

  var left = null;  // the match page's own content, while the form is in its place

  // Content in the page's place: its <main>, its title, the top of the page. hand-queue.js
  // is told ("ledger:page-shown"), hand-form.js too (htmx:load, as after any swap).
  function put(nodes, title) {
    var main = document.querySelector("main");
    main.replaceChildren.apply(main, nodes);
    document.title = title;
    if (window.htmx) window.htmx.process(main);  // the live preview (it says it is offline)
    main.dispatchEvent(new CustomEvent("htmx:load", { bubbles: true, detail: { elt: main } }));
    document.dispatchEvent(new CustomEvent("ledger:page-shown"));
    window.scrollTo(0, 0);
    main.focus({ preventScroll: true });
  }

  // This page's CSRF token (base.html: the body's hx-headers).
  function pageToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (e) {
      return null;
    }
  }

  // The kept form in the match page's place, as fetched (each time afresh).
  function show() {
    var page = new DOMParser().parseFromString(copy, "text/html");
    var theirs = page.querySelector("main");
    var main = document.querySelector("main");
    if (!theirs || !main) return false;
    if (kept) {
      // The phone's copy: its CSRF token is of the day it was kept; this page's own goes
      // with the hand (hand-queue.js renews it first on a page that is a copy too).
      var token = pageToken();
      theirs.querySelectorAll("input[name=csrf_token]").forEach(function (input) {
        if (token) input.value = token;
      });
    }
    left = { nodes: Array.prototype.slice.call(main.childNodes), title: document.title };
    put(Array.prototype.map.call(theirs.childNodes, function (node) {
      return document.importNode(node, true);
    }), page.title);
    return true;
  }

  // Back to the match page from the form shown in its place (its "← match" link, with
  // no connection): the page as it was, saying which hands are kept. Its poll does not
  // start again: the page loads afresh once the kept hands are sent.
  function back() {
    var was = left;
    left = null;
    put(was.nodes, was.title);
  }

  // No connection: the browser says so, or (a phone on a network that does not reach
  // the ledger) the page's poll found none (connection.js, "lost"; "held": a write;
  // "copy": this page is the phone's copy, opened with no connection).
  function unreachable() {
    var said = document.documentElement.getAttribute("data-connection");
    return !navigator.onLine || said === "lost" || said === "held" || said === "copy";
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var a = target ? target.closest("a[href]") : null;
    if (!a || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (a.hasAttribute("data-offline-entry") && copy !== null && unreachable() && show()) {
      event.preventDefault();
    } else if (left && !navigator.onLine && a.href === window.location.href.split("#")[0]) {
      event.preventDefault();
      back();
    }
  });

  document.addEventListener("htmx:afterSettle", refresh);  // the poll: another hand
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refresh);
  else refresh();
})();
