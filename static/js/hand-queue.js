/* A hand is entered once and never lost (templates/match/_hand_queue.html).

   - The new-hand form is sent from here: first kept in the browser's storage
     (localStorage, on this phone only), then posted with fetch. The server's redirect
     means it is stored (now, or by an earlier send of the same form: its idempotency key
     makes every resend safe), and the match page follows. Any other answer (a problem
     with the hand, a hand already there) is shown by sending the form the ordinary way.
   - With no connection the hand stays kept and is shown as "not sent yet"; it is sent
     once the browser is back online (and on every page of the match that loads, and
     every half minute while one waits). Reloading keeps it.
   - A second tap while a send is on its way does nothing.
   - The match page's undo offer goes when its time is up.
   Without this script the form posts as usual (and is still stored once per key).
   No inline code (CSP): everything is delegated from the document. */
(function () {
  "use strict";

  var UNSENT = "ledger.unsent-hands";
  var SAVED = "ledger.saved-hand-keys";
  var SENT_NOTES = "ledger.sent-notes";  // this tab's words for the next page
  var KEEP_SAVED = 20;
  var RETRY_MS = 30000;
  var DEVANAGARI = "०१२३४५६७८९";

  function load(name) {
    try {
      var list = JSON.parse(window.localStorage.getItem(name));
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }
  function store(name, list) {
    try {
      window.localStorage.setItem(name, JSON.stringify(list));
    } catch (e) { /* storage full or off: the form still posts */ }
  }

  function box() { return document.getElementById("hand-queue"); }
  function matchId() { var b = box(); return b ? b.getAttribute("data-match") : null; }
  function matchUrl() { var b = box(); return b ? b.getAttribute("data-match-url") : null; }

  // The words, in the page's language (data-text-* of the box), with {n} a hand number.
  function words(key, n) {
    var b = box();
    var text = (b && b.getAttribute("data-text-" + key)) || key;
    var digits = String(n);
    if (b && b.getAttribute("data-digits") === "deva") {
      digits = digits.replace(/[0-9]/g, function (d) { return DEVANAGARI.charAt(Number(d)); });
    }
    return text.replace("{n}", digits);
  }

  // This match's kept hands, in the order they are sent: by number (each was numbered
  // after the one before it), then as kept.
  function unsent() {
    var id = matchId();
    return load(UNSENT).filter(function (item) { return item.match === id; })
      .sort(function (a, b) { return (a.number || 0) - (b.number || 0) || a.kept - b.kept; });
  }
  // A kept hand after one that could not be saved waits for it (saved or dropped): sent
  // first, its number would be ahead of the match's.
  function behindRefused(item) {
    var list = unsent();
    for (var i = 0; i < list.length && list[i].key !== item.key; i += 1) {
      if (list[i].refused) return true;
    }
    return false;
  }
  function keep(item) {
    var list = load(UNSENT).filter(function (other) { return other.key !== item.key; });
    list.push(item);
    store(UNSENT, list);
  }
  function forget(key) {
    store(UNSENT, load(UNSENT).filter(function (item) { return item.key !== key; }));
  }
  // A kept hand dropped: the hands kept after it take a number less each (they were
  // numbered to follow it).
  function drop(key) {
    var gone = unsent().filter(function (item) { return item.key === key; })[0];
    forget(key);
    if (!gone || !gone.number) return;
    unsent().forEach(function (item) {
      if (!item.number || item.number <= gone.number) return;
      item.number -= 1;
      item.fields = item.fields.map(function (pair) {
        return pair[0] === "hand_number" ? [pair[0], String(item.number)] : pair;
      });
      keep(item);
    });
  }
  function markSaved(item) {
    var list = load(SAVED).filter(function (pair) { return pair[0] !== item.key; });
    list.push([item.key, item.number]);
    store(SAVED, list.slice(-KEEP_SAVED));
  }
  function savedAs(key) {
    var found = load(SAVED).filter(function (pair) { return pair[0] === key; });
    return found.length ? found[0][1] : null;
  }

  // The new-hand form of this page: the hand form that carries a key.
  function handForm() {
    var input = document.querySelector("form.hand-form input[name=hand_key]");
    return input ? input.form : null;
  }

  function itemOf(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    return {
      key: form.elements.hand_key.value,
      match: matchId(),
      number: Number(form.elements.hand_number.value) || null,
      url: form.action,
      fields: fields,
      kept: Date.now()
    };
  }

  // This page's CSRF token: a kept hand's own one may have expired since.
  function token() {
    var input = document.querySelector("input[name=csrf_token]");
    if (input) return input.value;
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (e) {
      return null;
    }
  }
  // A page opened with no connection is the phone's copy of it (offline-worker.js:
  // html[data-offline-copy]), with the CSRF token of the day it was kept, expired since
  // most likely: before its first send, the match page is asked again in the background
  // for a token of today, which this page takes (the body's and every form's). With no
  // answer (no connection yet), nothing is sent: the send is "unsent" (a TypeError, as
  // fetch's own), to try again later.
  var renewed = !document.documentElement.hasAttribute("data-offline-copy");
  function renewToken() {
    if (renewed) return Promise.resolve();
    return window.fetch(matchUrl(), {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "X-Ledger-Background": "1" }
    }).then(function (answer) {
      if (answer.headers.has("X-Ledger-Kept")) throw new TypeError("no connection");
      return answer.ok ? answer.text() : null;  // else the send says what is wrong
    }).then(function (html) {
      var body = html && new DOMParser().parseFromString(html, "text/html").body;
      var headers = body && body.getAttribute("hx-headers");
      if (!headers) return;
      var fresh = JSON.parse(headers)["X-CSRFToken"];
      document.body.setAttribute("hx-headers", headers);
      document.querySelectorAll("input[name=csrf_token]").forEach(function (input) {
        input.value = fresh;
      });
      renewed = true;
    });
  }

  // later: a hand kept, sent after it was typed (the server then says "sent and
  // saved", never "saved before from this form": the person saw no save).
  function fieldsFor(item, later) {
    var fresh = token();
    var fields = item.fields.map(function (pair) {
      return pair[0] === "csrf_token" && fresh ? [pair[0], fresh] : pair;
    });
    if (later) fields.push(["sent_later", "1"]);
    return fields;
  }

  // One send: "saved" (the server redirects: the hand is stored, now or before),
  // "unsent" (no answer, or the server is away: try again later), "taken" (409: the
  // match changed meanwhile, most often another phone saved that hand first), "gone"
  // (404: the match was deleted meanwhile, started by mistake, on another phone) or
  // "refused" (another answer that is not a save: a problem in the hand). The page must
  // show the last three.
  function send(item, later) {
    return renewToken().then(function () {
      return window.fetch(item.url, {
        method: "POST",
        body: new URLSearchParams(fieldsFor(item, later)),
        credentials: "same-origin",
        redirect: "manual"
      });
    }).then(function (response) {
      if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
        return "saved";
      }
      if (response.status >= 500) return "unsent";
      if (response.status === 404) return "gone";
      return response.status === 409 ? "taken" : "refused";
    }, function () {
      return "unsent";
    });
  }

  // Post a kept hand the ordinary way, so that the server's page (its problems, or the
  // hand already there beside it) replaces this one.
  function postAsPage(item) {
    var form = document.createElement("form");
    form.method = "post";
    form.action = item.url;
    form.hidden = true;
    fieldsFor(item).forEach(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    forget(item.key);
    form.submit();
  }

  function button(label, attribute, value) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button button-quiet";
    b.setAttribute(attribute, value);
    b.textContent = label;
    return b;
  }

  // The page's own requests (the live preview, the match page's polling) are answered
  // with the session cookie as it was when they were asked: one answered after a save
  // would take away that save's message and its undo offer. So a save waits for them to
  // finish (a little while at most), and none starts until the save is answered.
  var QUIET_MS = 3000;
  var inFlight = 0;
  var holding = false;
  var whenQuiet = [];
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (holding) {
      event.preventDefault();
      return;
    }
    inFlight += 1;
    event.detail.xhr.addEventListener("loadend", function () {
      inFlight -= 1;
      if (!inFlight) whenQuiet.splice(0).forEach(function (go) { go(); });
    });
  });
  function hold() {
    holding = true;
    return new Promise(function (go) {
      if (!inFlight) return go();
      whenQuiet.push(go);
      window.setTimeout(go, QUIET_MS);
    });
  }
  function release() { holding = false; }

  var notes = [];  // lines to show once (a hand sent, a form saved before)

  function render() {
    var b = box();
    if (!b) return;
    var lines = [];
    notes.forEach(function (text) {
      var p = document.createElement("p");
      p.textContent = text;
      lines.push(p);
    });
    unsent().forEach(function (item) {
      var p = document.createElement("p");
      var waits = !item.refused && behindRefused(item);
      p.className = item.refused ? "unsent refused" : "unsent";
      p.setAttribute("data-unsent", item.key);
      p.textContent = words(  // a refused hand: the words of why ("refused", "taken", "gone")
        item.refused || (waits ? "waits" : sending[item.key] ? "sending" : "unsent"),
        item.number
      );
      var actions = document.createElement("span");
      actions.className = "queue-actions";
      // (a hand whose match is gone has no form to open: it can only be dropped)
      if (item.refused && item.refused !== "gone") {
        actions.appendChild(button(words("open"), "data-open-hand", item.key));
      }
      else if (!waits) actions.appendChild(button(words("send"), "data-send-hands", "1"));
      actions.appendChild(button(words("drop"), "data-drop-hand", item.key));
      p.appendChild(document.createTextNode(" "));
      p.appendChild(actions);
      lines.push(p);
    });
    if (lines.length) b.setAttribute("role", "status");
    else b.removeAttribute("role");
    b.replaceChildren.apply(b, lines);
    b.hidden = lines.length === 0;
    renumberEntry();
  }

  // The match page speaks of the hand after the last one saved. With hands after it kept
  // on this phone, its "Enter hand" opens the form of the hand after those
  // (offline-entry.js) and says so (it said "Enter hand 2" with hand 2 kept: typed again
  // as the hand it seemed lost), and the lines on who deals and sits out the hand typed
  // already are put away (templates/match/_live.html, data-next-hand).
  function renumberEntry() {
    var entry = document.querySelector("a[data-offline-entry][data-hand-number]");
    if (!entry) return;
    var last = unsent().reduce(function (most, item) {
      return Math.max(most, item.number || 0);
    }, 0);
    var ahead = last >= Number(entry.getAttribute("data-hand-number"));
    if (!entry.hasAttribute("data-text-saved")) {
      entry.setAttribute("data-text-saved", entry.textContent);
    }
    entry.textContent = ahead ? words("enter", last + 1) : entry.getAttribute("data-text-saved");
    document.querySelectorAll("[data-next-hand]").forEach(function (line) { line.hidden = ahead; });
    endsAfter(ahead ? last : 0);
  }

  // "End the night" (or "Stop here…") ends the match after its last saved hand: with
  // hands after it kept on this phone, it is put away (the night would end before them,
  // and they were refused once sent), and a line says the kept hand goes first.
  function endsAfter(kept) {
    var ends = document.querySelectorAll("[data-ends-night]");
    ends.forEach(function (end) { end.hidden = kept > 0; });
    var line = document.getElementById("end-waits");
    if (!kept || !ends.length) {
      if (line) line.remove();
      return;
    }
    if (!line) {
      line = document.createElement("p");
      line.id = "end-waits";
      line.className = "hint end-waits";
      ends[ends.length - 1].closest("p, form").after(line);
    }
    line.textContent = words("end-waits", kept);
  }
  document.addEventListener("htmx:afterSettle", renumberEntry);  // the poll's new lines

  var sending = {};

  // Send this match's kept hands, one after the other, until one finds no connection or
  // one that could not be saved (the hands after it wait for it).
  var flushing = false;
  function flush() {
    if (flushing) return;
    var list = unsent();
    var queue = [];
    for (var i = 0; i < list.length && !list[i].refused; i += 1) queue.push(list[i]);
    if (!queue.length) return;
    flushing = true;
    var sent = [];
    function done() {
      flushing = false;
      sending = {};
      if (!sent.length || !afterSent(sent)) release();
      render();
    }
    (function next(i) {
      if (i >= queue.length) return done();
      var item = queue[i];
      sending[item.key] = true;
      render();
      hold().then(function () { return send(item, true); }).then(function (outcome) {
        delete sending[item.key];
        if (outcome === "unsent") return done();
        if (outcome === "saved") {
          forget(item.key);
          markSaved(item);
          sent.push(item);
        } else {
          item.refused = outcome;  // why, in the words shown
          keep(item);
          return done();
        }
        next(i + 1);
      });
    })(0);
  }

  // Has anything been typed into this page's form since it was shown?
  var typed = false;
  function noteTyping(event) {
    var form = handForm();
    if (form && event.target instanceof Element && form.contains(event.target)) typed = true;
  }
  document.addEventListener("input", noteTyping);
  document.addEventListener("change", noteTyping);

  // Hands just sent: the match page shows them (and offers to undo the last), saying
  // which were sent (from this tab's storage: the server's own message may be lost to
  // a poll answered meanwhile). A new-hand form with another hand typed into it stays,
  // and says what was sent. Whether it leaves the page.
  function afterSent(sent) {
    var form = handForm();
    var ownHand = form && sent.some(function (item) { return item.key === form.elements.hand_key.value; });
    var said = sent.map(function (item) { return words("sent", item.number); });
    if (!form || ownHand || !typed) {
      try {
        window.sessionStorage.setItem(SENT_NOTES, JSON.stringify(said));
      } catch (e) { /* the server's message is there still */ }
      window.location.assign(matchUrl());
      return true;
    }
    said.forEach(function (text) { notes.push(text); });
    return false;
  }

  // Words left by the page before (afterSent), unless the server's message says them.
  function sentNotes() {
    var said = [];
    try {
      said = JSON.parse(window.sessionStorage.getItem(SENT_NOTES)) || [];
      window.sessionStorage.removeItem(SENT_NOTES);
    } catch (e) { /* nothing to say */ }
    var flashes = document.querySelector(".flashes");
    var shown = flashes ? flashes.textContent : "";
    said.forEach(function (text) {
      if (typeof text === "string" && shown.indexOf(text) < 0) notes.push(text);
    });
  }

  // A key as the server makes them (16 random bytes, URL-safe base64).
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return window.btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // Once its hand is kept unsent, the form takes the next hand: a new key and number,
  // every row as it opened, the deal passed on (and who sits out in turn with it, or
  // the kept hand's players: ledger/web/hand_entry.py, default_playing). So a table
  // playing on without a connection types each hand into a form of its own: typed into
  // the same form, the next hand had the kept one's key and replaced it, unsaid.
  function nextHand(form, item) {
    var dealer = form.elements.dealer;
    var deal = dealer ? dealer.closest("[data-deal-passes]") : null;
    var seats = dealer ? Array.prototype.map.call(dealer.options, function (o) { return o.value; }) : [];
    var was = seats.indexOf(dealer ? dealer.value : "");
    var plays = seats.map(function (name, i) {
      var box = form.elements["players-" + i + "-plays"];
      return !box || box.type !== "checkbox" || box.checked;
    });
    var last = unsent().reduce(function (most, other) {
      return Math.max(most, other.number || 0);
    }, item.number || 0);
    form.reset();
    form.elements.hand_key.value = newKey();
    if (last) form.elements.hand_number.value = String(last + 1);
    if (deal && was >= 0) {
      var step = deal.getAttribute("data-deal-passes") === "right" ? seats.length - 1 : 1;
      var next = (was + step) % seats.length;
      dealer.value = seats[next];
      plays = window.ledgerHandForm.playingInTurn(form, next) || plays;
    }
    plays.forEach(function (on, i) {
      var box = form.elements["players-" + i + "-plays"];
      if (box && box.type === "checkbox") box.checked = on;
    });
    // The notes on who sat out were about the form's first hand.
    form.querySelectorAll(".carried-note").forEach(function (note) { note.hidden = true; });
    if (last) {
      var heading = document.querySelector("h1");
      if (heading) heading.textContent = words("adding", last + 1);
      form.querySelectorAll("button.button-primary[type=submit]").forEach(function (b) {
        b.textContent = words("save", last + 1);
      });
    }
    // The preview, if it can; hand-form.js reads each row again (who may finish).
    form.dispatchEvent(new Event("change", { bubbles: true }));
    typed = false;  // nothing typed into the next hand yet
    form.setAttribute("data-renewed", "");
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || form !== handForm() || !box()) return;
    if (event.submitter && event.submitter.name === "action") return;  // not a save
    event.preventDefault();
    if (form.hasAttribute("data-sending")) return;  // a second tap: the first is on its way
    if (form.hasAttribute("data-renewed") && !typed) {
      // A tap again on the next hand's form, nothing typed in it (the kept hand seemed
      // not to go): it would keep an empty hand, refused later, that the hands after it
      // wait for. The word of the kept hand is at the top.
      box().scrollIntoView({ block: "nearest" });
      return;
    }
    var item = itemOf(form);
    var waiting = unsent().some(function (other) {
      return other.key !== item.key && (other.number || 0) < (item.number || Infinity);
    });
    keep(item);
    if (waiting) {  // after the hands kept before it, in order
      nextHand(form, item);
      render();
      box().scrollIntoView({ block: "nearest" });
      return flush();
    }
    form.setAttribute("data-sending", "");
    form.setAttribute("aria-busy", "true");
    hold().then(function () { return send(item); }).then(function (outcome) {
      form.removeAttribute("data-sending");
      form.removeAttribute("aria-busy");
      if (outcome !== "saved") release();
      if (outcome === "saved") {
        forget(item.key);
        markSaved(item);
        window.location.assign(matchUrl());
      } else if (outcome === "refused" || outcome === "taken" || outcome === "gone") {
        forget(item.key);
        HTMLFormElement.prototype.submit.call(form);
      } else {
        nextHand(form, item);
        render();
        box().scrollIntoView({ block: "nearest" });  // the word is at the top of the page
      }
    });
  });

  // The match page's copy of the new-hand form shown offline in its place, or the match
  // page put back (offline-entry.js). The form takes a key of its own (the copy's may
  // have gone with a hand since it was fetched) and, after the hands kept on this phone,
  // the hand after the last one, as the form does once one is kept: the form set as
  // that hand was, then passed on.
  document.addEventListener("ledger:page-shown", function () {
    notes = [];
    var form = handForm();
    if (!form) return render();
    form.elements.hand_key.value = newKey();
    var list = unsent();
    var last = list[list.length - 1];
    if (last && last.number >= (Number(form.elements.hand_number.value) || 0)) {
      var was = {};
      last.fields.forEach(function (pair) { was[pair[0]] = pair[1]; });
      if (form.elements.dealer && was.dealer) form.elements.dealer.value = was.dealer;
      form.querySelectorAll("input[type=checkbox][name$=-plays]").forEach(function (box) {
        box.checked = Object.prototype.hasOwnProperty.call(was, box.name);
      });
      nextHand(form, last);
    }
    typed = false;
    render();
  });

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    var b = target.closest("[data-send-hands]");
    if (b) return flush();
    b = target.closest("[data-drop-hand]");
    if (b) {
      drop(b.getAttribute("data-drop-hand"));
      render();
      return flush();
    }
    b = target.closest("[data-open-hand]");
    if (b) {
      var key = b.getAttribute("data-open-hand");
      unsent().forEach(function (item) { if (item.key === key) postAsPage(item); });
    }
  });

  // Undo is offered for a short while (ledger/web/undo.py checks the time too).
  function timeUndo() {
    document.querySelectorAll("form[data-undo-seconds]").forEach(function (form) {
      var seconds = Number(form.getAttribute("data-undo-seconds")) || 0;
      window.setTimeout(function () { form.remove(); }, seconds * 1000);
    });
  }

  // A form shown again by Back says that it was saved already.
  function noteSavedForm() {
    var form = handForm();
    if (!form) return;
    var number = savedAs(form.elements.hand_key.value);
    if (number !== null && notes.length === 0) notes.push(words("saved-before", number));
  }

  function start() {
    sentNotes();
    noteSavedForm();
    render();
    timeUndo();
    flush();
  }

  window.addEventListener("online", flush);
  window.setInterval(function () { if (unsent().length) flush(); }, RETRY_MS);
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    var form = handForm();
    if (form) {
      form.removeAttribute("data-sending");
      form.removeAttribute("aria-busy");
    }
    release();
    notes = [];
    start();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
