// A form sent back with problems opens at its first one: the field (aria-invalid, its
// message tied to it by aria-describedby), the form's list of problems, or a problem of
// a group of fields (a list of players). The focus goes
// there, so a screen reader says what is wrong and where, and a keyboard or a phone at
// large text is at the place to fix it (the page opened at its top, the problem often
// screens below, in a folded part). Nothing moves when something already has the focus
// (an autofocus). No inline code (CSP).
(function () {
  "use strict";

  function firstProblem() {
    return document.querySelector('[aria-invalid="true"], .form-problems, .field-errors');
  }

  // At "load": the scroll to a fragment (the checker's answer opens at #hand-preview) is
  // done by then, and took a focus set before it away.
  window.addEventListener("load", function () {
    var problem = firstProblem();
    if (!problem || (document.activeElement && document.activeElement !== document.body)) return;
    for (var fold = problem.closest("details:not([open])"); fold; fold = fold.parentElement.closest("details:not([open])")) {
      fold.open = true;
    }
    if (!problem.matches("input, select, textarea, button")) problem.setAttribute("tabindex", "-1");
    problem.focus();
  });
})();
