// A PDF takes a second or more to lay out the first time: the tapped link says so until
// the PDF has arrived (the server sets the readable cookie "pdf_ready" on every PDF it
// sends; a browser that downloads the PDF stays on this page), and a second tap on it
// does not ask for another copy meanwhile.
(function () {
  "use strict";
  var COOKIE = "pdf_ready";
  var GIVE_UP_MS = 60000;
  var busyText = document.body.getAttribute("data-text-pdf-busy");

  function readyMark() {
    var match = document.cookie.match(/(?:^|;\s*)pdf_ready=([^;]*)/);
    return match ? match[1] : "";
  }

  function restore(link) {
    if (!link.hasAttribute("aria-busy")) return;
    link.textContent = link.getAttribute("data-pdf-label");
    link.removeAttribute("aria-busy");
    link.removeAttribute("data-pdf-label");
    link.classList.remove("pdf-busy");
  }

  function isPdfLink(link) {
    var path = link.pathname || "";
    return path.slice(-4) === ".pdf";
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || !isPdfLink(link) || !busyText) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.hasAttribute("aria-busy")) {
      event.preventDefault();
      return;
    }
    var before = readyMark();
    var started = Date.now();
    link.setAttribute("data-pdf-label", link.textContent);
    link.setAttribute("aria-busy", "true");
    link.classList.add("pdf-busy");
    link.textContent = busyText;
    var timer = setInterval(function () {
      if (readyMark() !== before || Date.now() - started > GIVE_UP_MS) {
        clearInterval(timer);
        restore(link);
      }
    }, 250);
  });

  // Back from the PDF (the page restored as it was left): every link as it was.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("a[aria-busy]").forEach(restore);
  });
})();
