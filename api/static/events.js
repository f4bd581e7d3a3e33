/* The events' pages (/events...): each form is sent to the JSON API (api/routes/events.py) and the page follows
 * the answer; a refusal is shown with its reason in #event-error.
 * The write key is this browser's, the recorder's too (writekey.js: kept here, brought by a join URL's #key=...).
 */
(function () {
  "use strict";
  var key = tuteWriteKey.get;

  Array.prototype.forEach.call(document.querySelectorAll("input.write-key"), function (input) {
    input.value = key();
    input.addEventListener("change", function () { tuteWriteKey.set(input.value); });
  });

  function send(method, url, body) {
    return fetch(url, { method: method, headers: tuteWriteKey.headers(true), body: JSON.stringify(body || {}) })
      .then(function (r) { return r.json().then(function (data) { return { status: r.status, data: data }; }); });
  }

  var error = document.getElementById("event-error");

  function refused(r) {
    error.hidden = false;
    var located = (r.data.errors || []).map(function (e) { return e.text ? e.text + ": " + e.message : e.message; });
    var detail = located.length > 1 ? located.join("; ") : r.data.detail;
    error.textContent = r.status === 401 || r.status === 403 ?
      t("This needs the write key: enter it below. {detail}", { detail: detail }) : detail;
  }

  function number(input) { return input.value.trim() === "" ? 0 : parseInt(input.value, 10); }

  /* -- /events: a new event ------------------------------------------------------------------------------ */
  var created = document.getElementById("new-event");
  if (created) created.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var f = created.elements;
    var body = { name: f.name.value.trim(), kind: f.kind.value, rules: f.rules.value, format: f.format.value,
                 rounds: number(f.rounds), seed: number(f.seed) };
    send("POST", "/api/v1/events", body).then(function (r) {
      if (r.status === 201) location.href = "/events/" + encodeURIComponent(r.data.name);
      else refused(r);
    });
  });

  /* -- /events/{name}: entrants, and the next round ----------------------------------------------------- */
  var entrants = document.getElementById("entrants");
  if (entrants) entrants.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var lines = entrants.elements.entrants.value.split("\n").map(function (l) { return l.trim(); })
      .filter(function (l) { return l; });
    var url = "/api/v1/events/" + encodeURIComponent(entrants.dataset.event) + "/entrants";
    send("POST", url, { entrants: lines }).then(function (r) {
      if (r.status === 201) location.reload();
      else refused(r);
    });
  });

  var pair = document.getElementById("pair-round");
  if (pair) pair.addEventListener("click", function () {
    var name = pair.parentNode.dataset.event;
    pair.disabled = true;
    send("POST", "/api/v1/events/" + encodeURIComponent(name) + "/rounds", {}).then(function (r) {
      pair.disabled = false;
      if (r.status === 201) location.href = "/events/" + encodeURIComponent(name) + "/rounds/" + r.data.number;
      else refused(r);
    });
  });

  /* -- /events/{name}/rounds/{n}/tables/{t}: the result ------------------------------------------------ */
  var form = document.getElementById("result");
  var saved = document.getElementById("saved");

  function show(result) {
    var f = form.elements;
    [["matches", "_matches"], ["deals", "_deals"], ["points", "_points"]].forEach(function (p) {
      f["home" + p[1]].value = result[p[0]][0];
      f["away" + p[1]].value = result[p[0]][1];
    });
    error.hidden = true;
    saved.textContent = t("Result: matches {hm}-{am}, deals {hd}-{ad}, points {hp}-{ap}", {
      hm: result.matches[0], am: result.matches[1], hd: result.deals[0], ad: result.deals[1],
      hp: result.points[0], ap: result.points[1] });
    saved.classList.add("fresh");
  }

  if (form) form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var f = form.elements;
    var body = { matches: [number(f.home_matches), number(f.away_matches)],
                 deals: [number(f.home_deals), number(f.away_deals)],
                 points: [number(f.home_points), number(f.away_points)] };
    send("PUT", form.dataset.url, body).then(function (r) {
      if (r.status === 200) show(r.data);
      else refused(r);
    });
  });

  var fromDeals = document.getElementById("from-deals");
  if (fromDeals && form) fromDeals.addEventListener("click", function () {
    send("PUT", fromDeals.dataset.url, { from_deals: true }).then(function (r) {
      if (r.status === 200) show(r.data);
      else refused(r);
    });
  });
})();
