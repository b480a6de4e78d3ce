/* Says, quietly, when a page's poll cannot reach the ledger and when it can again: the
   big screen (templates/screen/base.html) and the match page, the scorekeeper's and each
   follower's (templates/match/show.html), whose figures would otherwise stand there as
   if current while the phone has no connection. The line is #connection; data-poll
   names the element htmx polls with; data-text-lost and data-text-back are its words,
   in the page's language. What it said last is on <html> for whoever checks it:
   data-connection="lost|back|held|gone|copy". Nothing here needs a tap; polling itself is htmx's.

   A write sent with no connection left the page for the browser's own error page, and
   what was typed with it (a changed hand: Back did not bring it back). So on a page
   whose line has words for it (data-text-held: the match page, a hand's change and its
   delete, a player's own page, the editor's table page), a form that posts while the browser says it is offline, or after a poll
   failed, first asks the ledger whether it can be reached (the line's data-probe, never
   cached); with no answer the page stays as it is and the line says so, and a tap once
   the connection is back sends it.

   A poll answered 404 is no lost connection: the match or table was deleted (started by
   mistake) while the page followed it. The line says so (data-text-gone) and the page
   polls no more, where it said the connection was lost and asked again for ever.

   A page opened with no connection at all is the copy the phone kept of it
   (static/js/offline-worker.js marks it: html[data-offline-copy], when it was kept). The
   line says so from the start, and since when (data-text-copy, {time} the date and time
   in the page's language and digits: in Nepali by the Bikram Sambat months the line
   carries, data-calendar, as every date of the page is written, where the browser's
   Nepali wrote the month in English under Debian's Chromium), until a poll answers again; where the line has
   data-copy-forms-off, the copy's forms that write are switched off (they need a
   connection). */
(function () {
  "use strict";

  var BACK_SECONDS = 6; // how long "connected again" stays before the line goes quiet
  var root = document.documentElement;
  var lost = false;
  var gone = false;
  var backTimer = null;

  function line() { return document.getElementById("connection"); }

  function say(state) {
    var el = line();
    if (!el) return;
    el.classList.toggle("is-lost", state === "lost" || state === "held" || state === "gone" || state === "copy");
    el.classList.toggle("is-back", state === "back");
    var words = state ? el.getAttribute("data-text-" + state) || "" : "";
    el.textContent = words.replace("{time}", keptAt());
    if (state) root.setAttribute("data-connection", state);
  }

  // When the copy shown was kept, as the page writes a date: its language and digits.
  function keptAt() {
    var when = new Date(root.getAttribute("data-offline-copy") || "");
    if (isNaN(when.getTime())) return "";
    var digits = document.body.classList.contains("digits-deva") ? "deva" : "latn";
    var own = byCalendar(when);
    if (own) return digits === "deva" ? own.replace(/[0-9]/g, devanagari) : own;
    var style = { dateStyle: "medium", timeStyle: "short", numberingSystem: digits };
    try {
      return new Intl.DateTimeFormat(root.lang || undefined, style).format(when);
    } catch (e) {
      return when.toLocaleString();
    }
  }

  function devanagari(digit) { return String.fromCharCode(0x0966 + Number(digit)); }

  // `when` by the page's own months (the line's data-calendar: each month's first day,
  // its year, its name; the last one only ends the one before), on this phone's clock,
  // as the page writes a moment: "२१ मंसिर २०८३, १९:१२" (Western digits here). Nothing
  // where the line has no months (English: the browser writes it), or none holds that day.
  function byCalendar(when) {
    var months = JSON.parse(line().getAttribute("data-calendar") || "[]");
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    var day = when.getFullYear() + "-" + pad(when.getMonth() + 1) + "-" + pad(when.getDate());
    for (var i = 0; i + 1 < months.length; i++) {
      if (months[i][0] <= day && day < months[i + 1][0]) {
        var first = months[i][0].split("-");
        var start = Date.UTC(Number(first[0]), Number(first[1]) - 1, Number(first[2]));
        var date = (Date.UTC(when.getFullYear(), when.getMonth(), when.getDate()) - start) / 86400000 + 1;
        return date + " " + months[i][2] + " " + months[i][1] + ", " +
          pad(when.getHours()) + ":" + pad(when.getMinutes());
      }
    }
    return "";
  }

  function isPoll(event) {
    var elt = event.detail && event.detail.elt;
    var el = line();
    return elt && el && elt.id === el.getAttribute("data-poll");
  }

  function failed(event) {
    if (!isPoll(event) || gone) return;
    var answer = event.detail.xhr;
    if (answer && answer.status === 404 && line().hasAttribute("data-text-gone")) {
      gone = true;
      clearTimeout(backTimer);
      say("gone");
      return;
    }
    if (lost) return;
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

  var probing = false;
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var el = line();
    if (!(form instanceof HTMLFormElement) || event.defaultPrevented || !el) return;
    if (!el.hasAttribute("data-text-held") || form.method !== "post") return;
    if (form.hasAttribute("data-reached")) return;  // asked just now: it goes
    // The browser says it is online and no poll has failed: it goes at once, with no
    // round trip first (and no moment in which the page seems to ignore the tap).
    if (navigator.onLine && !lost) return;
    event.preventDefault();
    if (probing) return;  // a second tap while the ledger is asked
    probing = true;
    var submitter = event.submitter && event.submitter.form === form ? event.submitter : null;
    window.fetch(el.getAttribute("data-probe"), { cache: "no-store", credentials: "omit" })
      .then(function (answer) { return answer.ok; }, function () { return false; })
      .then(function (reached) {
        probing = false;
        if (!reached) {
          lost = true;
          clearTimeout(backTimer);
          say("held");
          el.scrollIntoView({ block: "nearest" });
          return;
        }
        if (lost) {
          lost = false;
          say("");
        }
        form.setAttribute("data-reached", "");
        if (submitter) form.requestSubmit(submitter);
        else form.requestSubmit();
        form.removeAttribute("data-reached");  // (the page kept by Back asks again)
      });
  });

  // A copy's forms that write, on a page whose line asks for it (data-copy-forms-off: a
  // table's page, a player's own page): switched off, each control described by the
  // line, which says they need a connection. Sent from the copy they would go with its
  // old token, or be held; off, they do not pretend to work. The page opened again
  // with a connection has them as ever.
  function formsOff() {
    document.querySelectorAll("form[method=post]").forEach(function (form) {
      form.setAttribute("data-needs-connection", "");
      Array.prototype.forEach.call(form.elements, function (control) {
        control.disabled = true;
        if (control.matches("button, input[type=submit]")) {
          control.setAttribute("aria-describedby", "connection");
        }
      });
    });
  }

  // The copy kept on the phone, opened with no connection: said at once (the scores
  // are as they were then), and "connected again" once a poll answers.
  if (root.hasAttribute("data-offline-copy") && line() && line().hasAttribute("data-text-copy")) {
    lost = true;
    say("copy");
    if (line().hasAttribute("data-copy-forms-off")) formsOff();
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (gone && isPoll(event)) event.preventDefault();  // nothing there to follow
  });
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:afterRequest", answered);
})();
