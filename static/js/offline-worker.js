/* The service worker: the last copy of the pages this phone opened (a match's page and
   big screen, a table's page and big screen, a player's own page and the list of them,
   "All my tables", the landing page),
   for a page opened with no connection at all (a reload, the home screen, a bookmark,
   a recent tab), where the browser showed its own error page and the night's score, or
   what a player owes, was out of reach. Served from the ledger's root
   (ledger/web/main.py, /offline-worker.js) so that its scope covers the pages;
   registered by static/js/offline-copy.js (the pages' keeps_copy).

   - The network first, always: a copy is answered only when the network fails, so a
     new version of the ledger is never hidden behind an old copy, and a copy served
     says so (html[data-offline-copy], the time it was kept; static/js/connection.js
     says "an earlier copy, kept at …").
   - The server says what may be kept (X-Ledger-Offline-Copy): "page", the pages above
     (ledger.http.no_store.may_keep_copy: a 200 to a GET), and "form", the new-hand
     form the match page fetches in the background for "Enter hand"
     (static/js/offline-entry.js), which is served again only to that background
     fetch, never as a page: its key is replaced by hand-queue.js before it takes a
     hand. Nothing else is kept: no answer to a POST, no redirect (an edit link's or an
     own link's /join/<key>), no error, no other page. A player's own page is kept by
     the phone that opened it, with that player's own link in its session: no other
     phone has it, and no copy is ever given to another browser.
   - What a page shows once is cut out of its copy: the parts the templates mark
     <!--offline:not-kept--> … <!--/offline:not-kept--> (a message, the undo offer, the
     edit link, an own page's new link). A copy that still holds a join link (a key) is
     not kept at all.
   - One copy per address (the match's own URL, its query too): never another match's.
   - Bounded: the newest PAGES_KEPT pages and FORMS_KEPT forms, and the static files
     they need (ASSETS_KEPT), among them the QR code of a page's read-only link (a
     plain GET: …/qr.svg, a big screen's and a table's page's; never an own link's, which
     is drawn once into the answer to a write); the oldest go first.
   - A match or table deleted goes: its copies are dropped when this phone deletes it
     (the POST to …/delete), and when the ledger answers 404 for it (a page, or a
     follower's or a big screen's poll); a player's own page goes with "Forget me" (the
     POST to …/forget), and when the ledger refuses it (403: the link was revoked or
     replaced), and the copy of "All my tables" (/me) with it, which named that table
     and its money: the next visit keeps the list as it is then.
   - Versioned: the caches are named after this file's hash (VERSION, put in by the
     route); a new worker takes over at once (skipWaiting, clients.claim) and drops the
     caches of the one before.
   No copy is kept where the page is not https or this computer: browsers run service
   workers only in a secure context. */
"use strict";

var VERSION = "__VERSION__";
var PREFIX = "ledger-offline-";
var PAGES = PREFIX + "pages-" + VERSION;
var FORMS = PREFIX + "forms-" + VERSION;
var ASSETS = PREFIX + "assets-" + VERSION;
var PAGES_KEPT = 12;
var FORMS_KEPT = 12;
var ASSETS_KEPT = 60;
var MARK = "X-Ledger-Offline-Copy";      // the server's word: "page" or "form"
var KEPT_AT = "X-Ledger-Kept";           // on a copy: when it was kept (ISO 8601, UTC)
var BACKGROUND = "X-Ledger-Background";  // a page's script asking (offline-entry.js)
var NOT_KEPT = /<!--offline:not-kept-->[\s\S]*?<!--\/offline:not-kept-->/g;
var SCOPE = new URL(self.registration.scope);
var STATIC = SCOPE.pathname + "static/";
// The headers a copy keeps: the page's Content-Security-Policy and the rest of the
// security headers (ledger/http/security.py) hold for the copy as for the page.
var KEEP_HEADERS = [
  "Content-Type", "Content-Security-Policy", "X-Content-Type-Options",
  "Referrer-Policy", "X-Frame-Options", "Cache-Control"
];

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  var current = [PAGES, FORMS, ASSETS];
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(PREFIX) === 0 && current.indexOf(name) < 0;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function inScope(url) {
  return url.origin === SCOPE.origin && url.pathname.indexOf(SCOPE.pathname) === 0;
}

// Kept as it comes, as a page's static file: the static files, and a read-only link's
// QR code (a match's or a table's …/qr.svg: no key is in it).
function isAsset(url) {
  return url.pathname.indexOf(STATIC) === 0 || /^\/(matches|tables)\/[^/]+\/qr\.svg$/.test(
    url.pathname.slice(SCOPE.pathname.length - 1));
}

// The entry stored under a URL moves to the end (the newest), and the oldest past
// `most` go.
function keep(name, url, response, most) {
  return caches.open(name).then(function (cache) {
    return cache.delete(url).then(function () { return cache.put(url, response); })
      .then(function () { return cache.keys(); })
      .then(function (keys) {
        return Promise.all(keys.slice(0, Math.max(0, keys.length - most)).map(function (old) {
          return cache.delete(old);
        }));
      });
  });
}

// A page or a form as its copy: the one-time parts cut out, the security headers and
// the time it was kept. None (null) when it still holds a key, or a mark left open.
function copyOf(response) {
  return response.text().then(function (html) {
    var cut = html.replace(NOT_KEPT, "");
    if (cut.indexOf("offline:not-kept") >= 0 || cut.indexOf("/join/") >= 0) return null;
    var headers = new Headers();
    KEEP_HEADERS.forEach(function (name) {
      var value = response.headers.get(name);
      if (value !== null) headers.set(name, value);
    });
    headers.set(KEPT_AT, new Date().toISOString());
    return new Response(cut, { status: 200, headers: headers });
  });
}

function keepCopy(name, url, response, most) {
  return copyOf(response).then(function (copy) {
    return copy ? keep(name, url, copy, most) : forget(url);
  });
}

// The list of this phone's own pages ("All my tables"), which names each one's table.
var MINE = SCOPE.pathname + "me";

// The writes that take a page away with its copies: a match or table deleted, a player
// forgotten ("Forget me"). Not a hand, a payment or a QR code taken back, whose page
// stays: "Take back" on an own page dropped the list of this phone's own pages.
var GONE = /^(?:(?:matches|tables)\/[^/]+\/delete|me\/[^/]+\/forget)$/;

// Every copy of a match or table: its page and whatever is under it (its form, its big
// screen, its QR code); of an own page, that page and the list of them (MINE).
function forget(url) {
  var path = new URL(url).pathname.replace(/(\/screen)?\/(live|delete|forget)$/, "");
  var list = path.indexOf(MINE + "/") === 0 ? MINE : null;
  return Promise.all([PAGES, FORMS, ASSETS].map(function (name) {
    return caches.open(name).then(function (cache) {
      return cache.keys().then(function (keys) {
        return Promise.all(keys.filter(function (request) {
          var kept = new URL(request.url).pathname;
          return kept === path || kept.indexOf(path + "/") === 0 || kept === list;
        }).map(function (request) { return cache.delete(request); }));
      });
    });
  }));
}

// A copy as it is answered: a page says on <html> that it is one, and since when.
function served(copy, page) {
  if (!page) return copy;
  return copy.text().then(function (html) {
    var when = copy.headers.get(KEPT_AT) || "";
    var marked = html.replace(/<html\b/i, '<html data-offline-copy="' + when + '"');
    return new Response(marked, { status: 200, headers: copy.headers });
  });
}

// The network first; its answer kept when the server says it may be (`kind`), the copy
// answered only when the network fails.
function networkFirst(event, name, kind, most) {
  var request = event.request;
  var url = request.url.split("#")[0];
  return fetch(request).then(function (response) {
    if (response.status === 404 || response.status === 410 || response.status === 403) {
      event.waitUntil(forget(url));
    } else if (kind === "asset" ? response.status === 200 && response.type === "basic"
      : response.status === 200 && !response.redirected && response.headers.get(MARK) === kind) {
      var taken = kind === "asset" ? keep(name, url, response.clone(), most)
        : keepCopy(name, url, response.clone(), most);
      event.waitUntil(taken);
    }
    return response;
  }, function (failure) {
    return caches.open(name).then(function (cache) {
      return cache.match(url, { ignoreVary: true });
    }).then(function (copy) {
      if (!copy) throw failure;
      return served(copy, kind === "page");
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (!inScope(url)) return;
  if (request.method === "POST" && GONE.test(url.pathname.slice(SCOPE.pathname.length))) {
    // This phone deletes it (a match started by mistake), or forgets its player: its
    // copies go with it; a delete refused sends this phone back to the page, which is
    // kept again.
    event.waitUntil(forget(request.url));
    return;
  }
  if (request.method !== "GET") return;  // a write goes as it is, and nothing of it is kept
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(event, PAGES, "page", PAGES_KEPT));
  } else if (request.headers.get(BACKGROUND)) {
    event.respondWith(networkFirst(event, FORMS, "form", FORMS_KEPT));
  } else if (isAsset(url)) {
    event.respondWith(networkFirst(event, ASSETS, "asset", ASSETS_KEPT));
  } else if (/\/live$/.test(url.pathname)) {
    event.respondWith(fetch(request).then(function (response) {
      if (response.status === 404) event.waitUntil(forget(request.url));  // it is gone
      return response;
    }));
  }
});

// The page that registered this worker was loaded before it ran, and so was what it
// fetched then (offline-entry.js's form, its static files): it asks for them to be kept
// (static/js/offline-copy.js). A page or form is fetched again in the background (no
// session cookie set by its answer: ledger/http/security.py), and kept as the server
// says; a static file is kept as it comes.
var KEPT_AS = { page: [PAGES, PAGES_KEPT], form: [FORMS, FORMS_KEPT] };
self.addEventListener("message", function (event) {
  var asked = event.data && event.data.keep;
  if (!Array.isArray(asked)) return;
  event.waitUntil(Promise.all(asked.map(function (each) {
    var url = typeof each === "string" ? new URL(each, SCOPE) : null;
    if (!url || !inScope(url)) return undefined;
    var plain = url.href.split("#")[0];
    if (isAsset(url)) {
      return fetch(plain).then(function (response) {
        return response.status === 200 ? keep(ASSETS, plain, response, ASSETS_KEPT) : undefined;
      }, function () { /* the next visit keeps it */ });
    }
    return fetch(plain, {
      credentials: "same-origin",
      cache: "no-store",
      redirect: "manual",
      headers: { "X-Ledger-Background": "1" }
    }).then(function (response) {
      var kind = response.status === 200 ? KEPT_AS[response.headers.get(MARK)] : null;
      return kind ? keepCopy(kind[0], plain, response, kind[1]) : undefined;
    }, function () { /* offline already: the next visit keeps it */ });
  })));
});
