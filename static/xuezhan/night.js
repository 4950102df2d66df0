// An open night's page keeps up with the tables: every 20 seconds it asks the API for the
// night and, when a match arrived or changed state (verified, corrected), reloads, unless
// the organiser is typing into one of its forms (then it waits for the next turn).
"use strict";
(function () {
  var state = document.getElementById("night-state");
  if (!state || !state.dataset.refresh || !window.fetch) return;
  var seen = null;
  var busy = false;
  document.addEventListener("input", function () { busy = true; });
  function fingerprint(night) {
    return JSON.stringify([night.status, (night.matches || []).map(function (m) {
      return [m.id, m.status, m.counted];
    }), (night.settle_ups || []).length]);
  }
  function check() {
    fetch(state.dataset.api, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (night) {
        if (!night) return;
        var now = fingerprint(night);
        if (seen !== null && now !== seen && !busy) { window.location.reload(); return; }
        seen = now;
      }, function () { /* offline: try again next turn */ });
  }
  check();
  window.setInterval(check, 20000);
})();
