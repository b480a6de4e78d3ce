/* A form's spare blocks ([data-spare], e.g. the empty handles of "How to pay me" beyond
   the first) wait out of sight; "Add another" ([data-add-row], hidden until this script
   runs) shows the next one and takes the focus to it. Without this script every block
   shows and the button stays hidden. The blocks are posted alike, shown or not. A spare
   block with something put back into it shows.
   No inline code (CSP). */
(function () {
  "use strict";

  function spares(form) {
    return Array.prototype.filter.call(form.querySelectorAll("[data-spare]"), function (block) {
      return block.hidden;
    });
  }

  function setUp() {
    document.querySelectorAll("[data-add-row]").forEach(function (button) {
      var form = button.form;
      if (!form) return;
      form.querySelectorAll("[data-spare]").forEach(function (block) { block.hidden = true; });
      button.closest(".add-row").hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element && event.target.closest("[data-add-row]");
    if (!button || !button.form) return;
    var left = spares(button.form);
    if (!left.length) return;
    left[0].hidden = false;
    var field = left[0].querySelector("input, select, textarea");
    if (field) field.focus();
    if (left.length === 1) button.closest(".add-row").hidden = true;
  });

  // A spare block something was put into (form-draft.js, what was typed before the
  // language switch) shows, as if "Add another" had been tapped.
  document.addEventListener("change", function (event) {
    var field = event.target;
    var block = field instanceof Element && field.form ? field.closest("[data-spare]") : null;
    if (!block || !block.hidden) return;
    block.hidden = false;
    var button = field.form.querySelector("[data-add-row]");
    if (button && !spares(field.form).length) button.closest(".add-row").hidden = true;
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
