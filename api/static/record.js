/* The phone recorder: start a recording (/record), then tap each card as it is played (/record/{id}).
 * Every entry is posted to the service, which saves it before it answers; a refusal is shown with its reason.
 * The write key is kept in this browser (localStorage) and sent as X-API-Key.
 */
(function () {
  "use strict";
  /* Every string this page's script shows, in one place (for the translation catalogue). */
  var TEXT = {
    sending: "Saving…", refused: "Refused:", legal: "Legal:", needKey: "This needs the write key: enter it below.",
    failed: "Not saved (the server did not answer): try again.", undone: "Undone:", over: "Deal over.",
    stored: "Validated and stored in the archive:", archivePage: "its page", notStored: "Not stored yet: the archive " +
    "could not be written; it is tried again at the next entry.", result: "Result", score: "Score",
    valid: "valid", invalid: "with errors", played: "played", declare: "Declare",
    whoLeads: "First deal of the match: tap the seat that leads, then its card."
  };
  var SUITS = ["O", "C", "E", "B"];
  var KEY_STORE = "tutepgn-write-key";

  function key() { return localStorage.getItem(KEY_STORE) || ""; }

  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-API-Key": key() },
                        body: JSON.stringify(body || {}) })
      .then(function (r) { return r.json().then(function (data) { return { status: r.status, data: data }; }); });
  }

  /* -- /record: the start form ----------------------------------------------------------------------- */
  var form = document.getElementById("start-form");
  if (form) {
    form.elements.key.value = key();
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var f = form.elements, players = {}, tags = {};
      ["N", "W", "S", "E"].forEach(function (s) { if (f["player-" + s].value.trim()) players[s] = f["player-" + s].value.trim(); });
      ["Event", "Match", "DealNo"].forEach(function (n) { if (f[n].value.trim()) tags[n] = f[n].value.trim(); });
      var rules = (f.rules.value + " " + f.options.value.trim()).trim();
      var body = { rules: rules, players: players, tags: tags, dealer: f.dealer.value };
      ["deal", "stock", "turned"].forEach(function (n) { if (f[n].value.trim()) body[n] = f[n].value.trim(); });
      if (f.seed.value.trim()) body.seed = parseInt(f.seed.value, 10);
      localStorage.setItem(KEY_STORE, f.key.value);
      var error = document.getElementById("start-error");
      post("/api/v1/recordings", body).then(function (r) {
        if (r.status === 201) { location.href = "/record/" + encodeURIComponent(r.data.id); return; }
        error.hidden = false;
        error.textContent = r.status === 401 || r.status === 403 ? TEXT.needKey + " " + r.data.detail : r.data.detail;
      });
    });
    return;
  }

  /* -- /record/{id}: the recorder ---------------------------------------------------------------------- */
  var box = document.getElementById("recorder");
  if (!box) return;
  var esc = window.TuteTable.esc;
  var base = "/api/v1/recordings/" + encodeURIComponent(box.dataset.id);
  var message = document.getElementById("message");
  var keyInput = document.getElementById("key");
  keyInput.value = key();
  keyInput.addEventListener("change", function () { localStorage.setItem(KEY_STORE, keyInput.value); });
  var state = JSON.parse(box.dataset.state);

  function say(html, kind) {
    message.innerHTML = html;
    message.className = "rec-message" + (kind ? " " + kind : "");
  }

  function buildPad() {
    var pack = {};
    state.pack.forEach(function (c) { pack[c] = true; });
    document.getElementById("pad").innerHTML = SUITS.map(function (suit) {
      return '<div class="pad-row" data-suit="' + suit + '">' + state.pack.filter(function (c) {
        return c.slice(-1) === suit;
      }).map(function (c) {
        return '<button type="button" class="pc" data-card="' + c + '" aria-label="' + c + '">' + window.cardSVG(c) + "</button>";
      }).join("") + "</div>";
    }).join("");
  }

  var leader = null;  /* the seat tapped as the leader of a match's first deal, which the scorer names */

  function draw() {
    window.TuteTable.draw(box, state);
    box.dataset.entries = state.entries;
    if (!state.leader_unknown) leader = null;
    Array.prototype.forEach.call(document.querySelectorAll("#seats .seat-chip"), function (chip) {
      if (!state.leader_unknown) return;
      chip.setAttribute("role", "button");
      chip.tabIndex = 0;
      chip.classList.toggle("to-move", chip.dataset.seat === leader);
    });
    var played = {};
    state.plays.forEach(function (p) { played[p.card] = true; });
    Array.prototype.forEach.call(document.querySelectorAll("#pad .pc"), function (b) {
      var gone = !!played[b.dataset.card];
      b.classList.toggle("played", gone);
      b.disabled = gone || state.over;
      b.setAttribute("aria-label", b.dataset.card + (gone ? " " + TEXT.played : ""));
    });
    document.getElementById("declare").innerHTML = state.declarations.map(function (d) {
      return '<button type="button" class="decl" data-entry="' + esc(d) + '">' + TEXT.declare + " " + esc(d) + "</button>";
    }).join("");
    var done = document.getElementById("done");
    done.hidden = !state.over;
    if (state.over) {
      done.innerHTML = TEXT.over + " " + TEXT.score + " " + state.totals.join("–") + " · " + TEXT.result + " " +
        esc(state.result) + "<br>" + (state.deal_url ? TEXT.stored + " " + (state.valid ? TEXT.valid : TEXT.invalid) +
        ', <a id="archive-link" href="' + state.deal_url + '">' + TEXT.archivePage + "</a>" : TEXT.notStored);
    }
  }

  var busy = false;
  function send(url, body, undo) {
    if (busy) return;
    busy = true;
    say(TEXT.sending, "pending");
    post(url, body).then(function (r) {
      busy = false;
      if (r.status === 200) {
        state = r.data.state;
        draw();
        say(esc((undo ? TEXT.undone + " " : "") + r.data.message), "ok");
      } else if (r.status === 401 || r.status === 403) {
        document.getElementById("key-box").open = true;
        say(esc(TEXT.needKey + " " + r.data.detail), "refused");
      } else {
        var item = (r.data.errors || [])[0];
        say('<b>' + TEXT.refused + "</b> " + esc(r.data.detail) +
            (item && item.expected ? '<br><span class="legal">' + TEXT.legal + " " + esc(item.expected) + "</span>" : ""),
            "refused");
      }
    }, function () { busy = false; say(TEXT.failed, "refused"); });
  }

  function enter(text) { send(base + "/entries", { entry: text }, false); }

  function pickLeader(ev) {
    var chip = ev.target.closest(".seat-chip");
    if (!chip || !state.leader_unknown || (ev.type === "keydown" && ev.key !== "Enter" && ev.key !== " ")) return;
    ev.preventDefault();
    leader = chip.dataset.seat;
    draw();
  }
  document.getElementById("seats").addEventListener("click", pickLeader);
  document.getElementById("seats").addEventListener("keydown", pickLeader);

  document.getElementById("pad").addEventListener("click", function (ev) {
    var b = ev.target.closest("button.pc");
    if (b && !b.disabled) enter(leader ? leader + " " + b.dataset.card : b.dataset.card);
  });
  document.getElementById("declare").addEventListener("click", function (ev) {
    var b = ev.target.closest("button.decl");
    if (b) enter(b.dataset.entry);
  });
  document.getElementById("other").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var input = document.getElementById("other-entry");
    if (input.value.trim()) enter(input.value.trim());
    input.value = "";
  });
  document.getElementById("undo").addEventListener("click", function () { send(base + "/undo", {}, true); });
  buildPad();
  draw();
  if (state.leader_unknown) say(esc(TEXT.whoLeads), "pending");
})();
