/* This browser's write key, shared by the pages that write (record.js, events.js): kept in localStorage, brought
 * by a join URL's fragment (#key=..., which no browser sends to a server: it is kept, then dropped from the
 * address), sent as X-API-Key.  Without one nothing is sent, so the machine the service runs on writes with none
 * (docs/security.md).
 */
var tuteWriteKey = (function () {
  "use strict";
  var STORE = "tutepgn-write-key";

  var joined = /^#key=([\w-]+)$/.exec(location.hash);
  if (joined) {
    localStorage.setItem(STORE, joined[1]);
    history.replaceState(null, "", location.pathname + location.search);
  }

  function get() { return localStorage.getItem(STORE) || ""; }

  function set(value) { localStorage.setItem(STORE, value.trim()); }

  function headers(json) {
    var h = json ? { "Content-Type": "application/json" } : {};
    if (get()) h["X-API-Key"] = get();
    return h;
  }

  return { get: get, set: set, headers: headers };
})();
