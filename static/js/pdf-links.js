// The PDF links: the paper they ask for, and "Preparing the PDF…" while one is made.
//
// The paper: A4 (the server's default), as Nepal and most of the world print, unless
// the page is English and the browser's own language names a country that prints on US
// Letter (en-US, en-CA: CLDR's paper sizes); there every PDF link asks for Letter, and
// the link to the other paper ("on US Letter", data-other-paper) offers A4. A Nepali
// page keeps A4. Without this script every link is A4, with Letter beside.
//
// A PDF takes a second or more to lay out the first time: the tapped link says so until
// the PDF has arrived (the server sets the readable cookie "pdf_ready" on every PDF it
// sends; a browser that downloads the PDF stays on this page), and a second tap on it
// does not ask for another copy meanwhile.
(function () {
  "use strict";
  // The countries that print on US Letter (CLDR's supplemental paperSize data).
  var LETTER_REGIONS = ["US", "CA", "MX", "CL", "CO", "CR", "GT", "NI", "PA", "PH", "PR",
    "SV", "VE", "BZ"];

  function browserRegion() {
    var tag = (navigator.languages && navigator.languages[0]) || navigator.language || "";
    try {
      return (new Intl.Locale(tag).region || "").toUpperCase();
    } catch (error) {
      return "";  // no tag, or one Intl cannot read: no region to go by
    }
  }

  var onLetter = document.documentElement.lang === "en" &&
    LETTER_REGIONS.indexOf(browserRegion()) !== -1;

  // Letter first in ``root``'s PDF links, where this browser prints on it.
  function choosePaper(root) {
    if (!onLetter || !root.querySelectorAll) return;
    root.querySelectorAll("a[href]").forEach(function (link) {
      if (!isPdfLink(link)) return;
      var url = new URL(link.href);
      var other = link.getAttribute("data-other-paper");
      if (other) {
        url.searchParams.set("paper", "a4");
        link.textContent = other;
        link.removeAttribute("data-other-paper");
      } else if (!url.searchParams.has("paper")) {
        url.searchParams.set("paper", "letter");
      } else {
        return;
      }
      link.href = url.href;
    });
  }
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

  choosePaper(document);
  // A part drawn again (the match page's live part, a preview): its links too.
  document.addEventListener("htmx:load", function (event) { choosePaper(event.detail.elt); });

  // Back from the PDF (the page restored as it was left): every link as it was.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("a[aria-busy]").forEach(restore);
  });
})();
