/* Tonight's match on the table's page (templates/table/show.html): as people are ticked
   or typed, or the packs changed, the seating note says who sits out each hand when more
   sit down than a hand deals to (the sentences are the page's own, in its language, in
   data-notes: by packs, then by the number of people). No inline code (CSP). */
(function () {
  "use strict";

  function names(text) {
    return (text || "").split(/[\n,،]+/).filter(function (name) { return name.trim(); });
  }

  function update(form) {
    var note = form.querySelector("#seating-note");
    if (!note) { return; }
    var count = form.querySelectorAll(
      'input[name="players"]:checked, input[name="known_guests"]:checked').length;
    var newcomer = form.querySelector('input[name="newcomer"]');
    if (newcomer && newcomer.value.trim()) { count += 1; }
    var guests = form.querySelector('input[name="guests"]');
    if (guests) { count += names(guests.value).length; }
    var packs = form.querySelector('input[name="packs"]:checked');
    var notes = JSON.parse(note.getAttribute("data-notes") || "{}");
    var said = (packs && notes[packs.value] && notes[packs.value][String(count)]) || "";
    if (note.textContent !== said) { note.textContent = said; }
  }

  function listen(event) {
    var form = event.target && event.target.closest && event.target.closest(".match-form");
    if (form) { update(form); }
  }
  document.addEventListener("change", listen);
  document.addEventListener("input", listen);
})();
