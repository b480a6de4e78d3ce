/* The hand form (templates/hand/_form.html): the steppers' − and + buttons, the
   tiplu that enables entering cards, the finisher's names following the typed names
   and offered only for the players in the hand, the note on an unseen player's maal,
   the dealt-tunnela shortcuts, copying a share link, the preview marked busy while it
   updates, and a word when a preview fails. What was typed is kept across the language
   switch by form-draft.js, as on every form.
   No inline code anywhere (CSP): everything is delegated from the document. */
(function () {
  "use strict";

  // Tell the form a value changed, as typing would (the preview listens for "input").
  function changed(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // The words this script writes, in the page's language: data-text-* on the hand form
  // or the page's body (templates/hand/_form.html, base.html), else English.
  var DEVANAGARI = "०१२३४५६७८९";
  function text(near, key, fallback) {
    var attribute = "data-text-" + key;
    var box = near && near.closest ? near.closest("[" + attribute + "]") : null;
    box = box || document.querySelector("[" + attribute + "]");
    return (box && box.getAttribute(attribute)) || fallback;
  }
  function number(near, n) {
    var box = near && near.closest ? near.closest("[data-digits]") : null;
    var s = String(n);
    if (!box || box.getAttribute("data-digits") !== "deva") return s;
    return s.replace(/[0-9]/g, function (d) { return DEVANAGARI.charAt(Number(d)); });
  }

  // A whole number typed in the box, read as the server reads it (ledger/forms/
  // numbers.py): Western or Devanagari digits, nothing else; NaN when it is no number.
  function readWhole(value) {
    var s = value.trim().replace(/[०-९]/g, function (d) { return String(DEVANAGARI.indexOf(d)); });
    return /^[0-9]{1,9}$/.test(s) ? Number(s) : NaN;
  }
  // Written back in the digits the box was typed in (Devanagari if any were); an empty
  // box in the page's digits, as the server writes a number it holds (numbers.py).
  function writeWhole(input, n) {
    var value = input.value.trim();
    if (value === "") return number(input, n);
    var s = String(n);
    if (!/[०-९]/.test(value)) return s;
    return s.replace(/[0-9]/g, function (d) { return DEVANAGARI.charAt(Number(d)); });
  }

  function controlled(button) {
    return document.getElementById(button.getAttribute("aria-controls"));
  }

  function step(button) {
    var input = controlled(button);
    if (!input) return;
    var min = Number(input.getAttribute("data-min") || 0);
    var max = input.hasAttribute("data-max") ? Number(input.getAttribute("data-max")) : Infinity;
    var now = readWhole(input.value);
    // A box that holds no number is left as it is: the server puts its error beside it.
    if (isNaN(now) && input.value.trim() !== "") return;
    var next = (isNaN(now) ? 0 : now) + Number(button.getAttribute("data-step"));
    next = Math.min(max, Math.max(min, next));
    var written = writeWhole(input, next);
    if (written === input.value) return;
    input.value = written;
    changed(input);
  }

  function appendKind(button) {
    var input = controlled(button);
    if (!input) return;
    var kind = button.getAttribute("data-append");
    var now = input.value.trim();
    input.value = now ? now + ", " + kind : kind;
    changed(input);
  }

  function copyLink(button) {
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) return;
    input.select();
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(input.value).then(
        function () { button.textContent = text(button, "copied", "Copied"); },
        function () { /* the text stays selected for copying by hand */ }
      );
    }
  }

  // Cards can be entered once there is a tiplu to count them by.
  function syncTiplu(form) {
    var tiplu = form.querySelector("[data-tiplu]");
    if (!tiplu) return;
    var has = tiplu.value.trim() !== "";
    form.querySelectorAll("input[data-needs-tiplu]").forEach(function (radio) {
      if (!radio.checked) radio.disabled = !has;
    });
    form.classList.toggle("has-tiplu", has);
  }

  // Every option of the finisher's list, in seat order, whether offered now or not: a
  // player switched to "Sits out" is taken out of the list (a hidden option still shows
  // in some phones' pickers), and put back in their seat when they play again.
  function winnerOptions(select) {
    if (!select.allOptions) select.allOptions = Array.prototype.slice.call(select.options);
    return select.allOptions;
  }

  // The finisher's choices: only the players in the hand. Without this script the list
  // keeps everyone, and the server refuses a finisher who sits out, in words (a form
  // re-shown so keeps that sentence: ``quiet`` as the page loads).
  var PLAYS = 'input[type="checkbox"][name^="players-"][name$="-plays"]';
  function syncPlaying(form, quiet) {
    var select = form.querySelector("select[data-winner]");
    if (!select) return;
    var out = {};
    form.querySelectorAll(PLAYS).forEach(function (input) {
      if (!input.checked) out[input.name.split("-")[1]] = true;  // players-<row>-plays
    });
    var before = select.value;
    var offered = winnerOptions(select).filter(function (option) {
      return !out[option.value];
    });
    var same = offered.length === select.options.length && offered.every(function (option, i) {
      return select.options[i] === option;
    });
    if (same) return;
    select.replaceChildren.apply(select, offered);
    if (out[before]) {
      select.value = "";
      if (!quiet) changed(select);  // the preview follows: no finisher yet
    } else {
      select.value = before;
    }
  }

  // The finisher's choices read the names as they are typed.
  function syncNames(form) {
    var select = form.querySelector("select[data-winner]");
    if (!select) return;
    form.querySelectorAll("input[data-player-name]").forEach(function (input) {
      var row = input.getAttribute("data-player-name");
      var option = winnerOptions(select).filter(function (o) { return o.value === row; })[0];
      if (option) {
        option.textContent = input.value.trim() ||
          text(form, "player", "Player {n}").replace("{n}", number(form, Number(row) + 1));
      }
    });
  }

  // Who plays when the seat ``dealer`` (an index) deals and more sit at the table than a
  // hand deals to: the dealer and the seats after it, the way the deal passes, sit out,
  // as many as must (ledger/web/hand_entry.py, default_playing). Null when nobody must.
  // hand-queue.js sets the next hand's form with it too.
  function playingInTurn(form, dealer) {
    var deal = form.querySelector("[data-sit-out-in-turn]");
    var out = deal ? Number(deal.getAttribute("data-sit-out-in-turn")) || 0 : 0;
    var seats = form.elements.dealer ? form.elements.dealer.options.length : 0;
    if (out <= 0 || dealer < 0 || dealer >= seats) return null;
    var step = deal.getAttribute("data-deal-passes") === "right" ? seats - 1 : 1;
    var plays = [];
    for (var seat = 0; seat < seats; seat += 1) plays.push(true);
    for (var k = 0, at = dealer; k < out; k += 1, at = (at + step) % seats) plays[at] = false;
    return plays;
  }
  window.ledgerHandForm = { playingInTurn: playingInTurn };

  function playsBoxes(form) {
    return Array.prototype.slice.call(form.querySelectorAll(PLAYS));
  }

  // Another dealer chosen (the one who dealt in fact): who sits out in turn follows
  // them, while the rows are as the last dealer's turn set them. A sit-out set by hand
  // (someone stepped away) is the scorekeeper's and stays.
  function syncDealer(select) {
    var form = select.form;
    var seats = Array.prototype.map.call(select.options, function (o) { return o.value; });
    var before = playingInTurn(form, seats.indexOf(select.getAttribute("data-dealt")));
    var after = playingInTurn(form, select.selectedIndex);
    select.setAttribute("data-dealt", select.value);
    var boxes = playsBoxes(form);
    if (!before || !after || boxes.length !== before.length) return;
    if (!boxes.every(function (box, i) { return box.checked === before[i]; })) return;
    boxes.forEach(function (box, i) { box.checked = after[i]; });
    syncPlaying(form);
  }

  // The note on an unseen player's maal (murder, kidnap) shows while the row is marked
  // unseen. Without this script the page shows it as the row was posted.
  var SEEN = 'input[type="radio"][name^="players-"][name$="-seen"]';
  function syncUnseen(form) {
    form.querySelectorAll(".player").forEach(function (row) {
      var note = row.querySelector(".unseen-maal");
      var unseen = row.querySelector(SEEN + '[value="unseen"]');
      if (note && unseen) note.hidden = !unseen.checked;
    });
  }

  function setUp(root) {
    var forms = root.matches && root.matches("form.hand-form")
      ? [root] : root.querySelectorAll ? root.querySelectorAll("form.hand-form") : [];
    forms.forEach(function (form) {
      syncTiplu(form);
      syncNames(form);
      syncPlaying(form, true);
      syncUnseen(form);
      var dealer = form.elements.dealer;
      if (dealer && dealer.tagName === "SELECT") dealer.setAttribute("data-dealt", dealer.value);
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var button = target.closest("[data-step]");
    if (button) return step(button);
    button = target.closest("[data-append]");
    if (button) return appendKind(button);
    button = target.closest("[data-copy]");
    if (button) return copyLink(button);
  });

  // A field the player changes drops its old error: the live preview lists what is
  // still wrong, and a stale message beside a corrected field would mislead.
  function clearErrors(target) {
    var lists = [];
    var described = target.getAttribute("aria-describedby");
    if (described) lists.push(described);
    var group = target.closest("fieldset.choices");
    if (group && group.id) lists.push(group.id + "-errors");
    lists.forEach(function (id) {
      var list = document.getElementById(id);
      if (list && list.classList.contains("field-errors")) list.remove();
    });
    target.removeAttribute("aria-invalid");
    var box = target.closest(".has-error");
    if (box) box.classList.remove("has-error");
  }

  function edited(event) {
    var target = event.target;
    // A change told by the form itself: hand-queue.js reset it for the next hand, every
    // field at once. Each row's state is read again (who is offered as the finisher,
    // the notes on the unseen maal, the cards' tiplu).
    if (target instanceof HTMLFormElement && target.classList.contains("hand-form")) {
      return setUp(target);
    }
    if (!(target instanceof Element) || !target.form) return;
    if (!target.form.classList.contains("hand-form")) return;
    if (target.matches("[data-tiplu]")) syncTiplu(target.form);
    if (target.matches("[data-player-name]")) syncNames(target.form);
    if (target.matches(PLAYS)) syncPlaying(target.form);
    if (target.matches(SEEN)) syncUnseen(target.form);
    if (target.matches("select[name=dealer]") && event.type === "change") syncDealer(target);
    clearErrors(target);
  }
  document.addEventListener("input", edited);
  document.addEventListener("change", edited);

  // While the preview is on its way, the preview and the one-line result are marked
  // busy: a screen reader then reads the new line once, when it has arrived.
  function setBusy(busy) {
    ["hand-preview", "hand-status"].forEach(function (id) {
      var region = document.getElementById(id);
      if (!region) return;
      if (busy) region.setAttribute("aria-busy", "true");
      else region.removeAttribute("aria-busy");
    });
  }
  function isPreview(event) {
    var preview = document.getElementById("hand-preview");
    return preview && event.detail.target === preview;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isPreview(event)) setBusy(true);
  });
  // Done once the answer is in (swapped, or failed: see previewFailed).
  document.addEventListener("htmx:afterRequest", function (event) {
    if (isPreview(event)) setBusy(false);
  });

  // A preview that could not be fetched says so instead of showing an old settlement,
  // in the preview and in the one-line result.
  function previewFailed(event) {
    if (!isPreview(event)) return;
    var preview = document.getElementById("hand-preview");
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    var words = status === 400
      ? text(preview, "expired",
          "The preview stopped: this page has expired. Reload it (what you entered may be lost).")
      : text(preview, "offline",
          "The preview could not be updated. Check the connection; the form still works.");
    var message = document.createElement("p");
    message.className = "preview-failed";
    message.textContent = words;
    preview.replaceChildren(message);
    var line = document.getElementById("hand-status");
    if (line) line.textContent = words;
    setBusy(false);
  }
  document.addEventListener("htmx:responseError", previewFailed);
  document.addEventListener("htmx:sendError", previewFailed);

  // New content (the first page, or a form redrawn for other house rules).
  document.addEventListener("htmx:load", function (event) { setUp(event.detail.elt); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  } else {
    setUp(document);
  }
})();
