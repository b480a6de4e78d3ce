/* What was typed or ticked into a page's forms, kept across the language switch (the
   header's English / नेपाली) and the digits switch (the footer's ०१२ / 012): the same
   page comes back in the other language or digits, and what was typed comes back with
   it (templates/base.html loads this on every page).
   What differs from each form as the page first showed it (a part redrawn since, for
   other house rules say, shows what was posted as its own) is kept in this tab's
   storage as the switch is tapped, and put back once, into the same form of the same
   page: the page's path, the form's id (else its action) and the values of its fields
   marked data-draft-key (the hand a hand form adds or the version it changes, the
   player a roster form is for). A form for another hand (one saved meanwhile on another
   phone) starts empty. Only what a person types or ticks is kept: never a hidden field
   (keys, CSRF tokens), a password or a file.
   A page answering a form sent back (refused: body[data-sent-back], the page the switch
   leads to, where the form shows empty) keeps every form whole; what comes back is what
   differs from that page.
   No inline code anywhere (CSP). */
(function () {
  "use strict";

  var DRAFT = "ledger-form-draft";
  var DRAFT_MS = 5 * 60 * 1000;  // a switch that never arrived is not put back later
  var TYPED = /^(text|search|number|tel|email|url|checkbox|radio|select-one|textarea)$/;

  var sentBack = document.body.getAttribute("data-sent-back");

  function identity(form) {
    var keys = Array.prototype.map.call(form.querySelectorAll("[data-draft-key]"), function (el) {
      return el.name + "=" + el.value;
    });
    return [sentBack || location.pathname, form.id || form.getAttribute("action") || ""].concat(keys).join(" ");
  }

  function controls(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && TYPED.test(el.type);
    });
  }

  function isBox(el) {
    return el.type === "checkbox" || el.type === "radio";
  }

  // A control's place in its form (a box is one of its name's values) and its state:
  // as it is now, or as the page showed it (a list shows its first option unless one
  // is marked).
  function place(el) {
    return isBox(el) ? el.name + "\n" + el.value : el.name;
  }
  function stateOf(el, shown) {
    if (isBox(el)) return shown ? el.defaultChecked : el.checked;
    if (el.type !== "select-one") return shown ? el.defaultValue : el.value;
    if (!shown) return el.value;
    var marked = Array.prototype.filter.call(el.options, function (o) { return o.defaultSelected; });
    return marked.length ? marked[0].value : el.options.length ? el.options[0].value : "";
  }

  // Each form as the page first showed it, by its identity: the state of each control.
  var firstShown = {};
  function noteShown() {
    Array.prototype.forEach.call(document.forms, function (form) {
      var states = {};
      controls(form).forEach(function (el) {
        if (!(place(el) in states)) states[place(el)] = stateOf(el, true);
      });
      firstShown[identity(form)] = states;
    });
  }

  function keepDraft() {
    var forms = [];
    Array.prototype.forEach.call(document.forms, function (form) {
      var shown = firstShown[identity(form)] || {};
      var changes = controls(form).filter(function (el) {
        var was = place(el) in shown ? shown[place(el)] : stateOf(el, true);
        return sentBack !== null || stateOf(el, false) !== was;
      }).map(function (el) {
        return [el.name, isBox(el) ? el.value : null, stateOf(el, false)];
      });
      if (changes.length) forms.push([identity(form), changes]);
    });
    if (!forms.length) return;
    try {
      window.sessionStorage.setItem(DRAFT, JSON.stringify({ at: Date.now(), forms: forms }));
    } catch (e) { /* no storage: the page comes back as it is shown */ }
  }

  // Put back as if typed: every value first, then a "change" from each control put back
  // (in the page's order), which the page's scripts and htmx follow as they follow a
  // person's typing (the hand form's rows and preview, the rules redrawn for another
  // profile). A fold holding one is opened: it was open to be typed into.
  function putBack(form, changes) {
    var all = controls(form);
    var put = [];
    changes.forEach(function (change) {
      all.forEach(function (el) {
        if (el.name !== change[0] || (change[1] === null) === isBox(el)) return;
        if (change[1] !== null && el.value !== change[1]) return;
        if (el.type === "select-one" && !Array.prototype.some.call(el.options, function (o) {
          return o.value === change[2];
        })) return;
        if (stateOf(el, false) === change[2]) return;
        if (isBox(el)) el.checked = change[2];
        else el.value = change[2];
        put.push(el);
      });
    });
    all.forEach(function (el) {
      if (put.indexOf(el) < 0 || (el.type === "radio" && !el.checked)) return;
      for (var fold = el.closest("details"); fold; fold = fold.parentElement.closest("details")) {
        fold.open = true;
      }
      el.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }

  function putBackDraft() {
    var draft = null;
    try {
      draft = JSON.parse(window.sessionStorage.getItem(DRAFT));
      window.sessionStorage.removeItem(DRAFT);
    } catch (e) { return; }
    if (!draft || !Array.isArray(draft.forms) || !(Date.now() - draft.at < DRAFT_MS)) return;
    Array.prototype.forEach.call(document.forms, function (form) {
      var mine = identity(form);
      draft.forms.forEach(function (kept) {
        if (kept[0] === mine) putBack(form, kept[1]);
      });
    });
  }

  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest(".lang-switch a, .digits-switch a") : null;
    if (link) keepDraft();
  });

  // Put back once htmx has taken in the whole page (its first load, of the body): the
  // fields' triggers (a preview, a redraw) are listening then.
  var loaded = false;
  document.addEventListener("htmx:load", function (event) {
    if (loaded || event.detail.elt !== document.body) return;
    loaded = true;
    noteShown();
    putBackDraft();
  });
})();
