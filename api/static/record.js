/* The phone recorder: start a recording (/record), then tap each card as it is played (/record/{id}); once the
 * deal is over, "Next deal" starts the match's next one (same players, the next dealer, the standing carried).
 * Every entry is posted to the service, which saves it before it answers; a refusal is shown with its reason.
 * The write key is this browser's (writekey.js: a table's join URL brings it, /record#key=...).
 * The start page may come filled in from an event's table (players, tags; a duplicate board's hands as dealt).
 * The page's state is the public one (no legal declarations: they would tell spectators what a hand holds); the
 * state is read again as the scorer, and every answer to an entry carries the scorer's state, declarations included.
 */
(function () {
  "use strict";
  var SUITS = ["O", "C", "E", "B"];
  var key = tuteWriteKey.get, headers = tuteWriteKey.headers;

  function post(url, body) {
    return fetch(url, { method: "POST", headers: headers(true), body: JSON.stringify(body || {}) })
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
      /* an event's table (/record?event=...&round=...&table=...): its Round, Table and Board tags, kept hidden */
      Array.prototype.forEach.call(form.querySelectorAll("input[data-tag]"), function (i) { tags[i.dataset.tag] = i.value; });
      var rules = (f.rules.value + " " + f.options.value.trim()).trim();
      var body = { rules: rules, players: players, tags: tags, dealer: f.dealer.value };
      ["deal", "stock", "turned"].forEach(function (n) { if (f[n].value.trim()) body[n] = f[n].value.trim(); });
      if (f.seed.value.trim()) body.seed = parseInt(f.seed.value, 10);
      tuteWriteKey.set(f.key.value);
      var error = document.getElementById("start-error");
      post("/api/v1/recordings", body).then(function (r) {
        if (r.status === 201) { location.href = "/record/" + encodeURIComponent(r.data.id); return; }
        error.hidden = false;
        error.textContent = r.status === 401 || r.status === 403 ?
          t("This needs the write key: enter it below. {detail}", { detail: r.data.detail }) : r.data.detail;
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
  keyInput.addEventListener("change", function () { tuteWriteKey.set(keyInput.value); scorerState(); });
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
        return '<button type="button" class="pc" data-card="' + c + '" aria-label="' + esc(window.TuteCards.cardWords(c)) +
               '">' + window.cardSVG(c) + "</button>";
      }).join("") + "</div>";
    }).join("");
  }

  /* A declaration entry as the table says it: "N 40" is "North: sing the forty", "S 20C" "South: sing twenty in
   * copas", "E tute 11" "East: sing tute of caballos", "N x7O" "North: exchange the 7 for the muestra". */
  function declarationWords(entry) {
    var m = /^([NWSE]) (?:(40)|20([OCEB])|tute (1[12])|x(\d+)[OCEB])$/.exec(entry);
    if (!m) return entry;
    var words = window.TuteCards, seat = words.seatWords(m[1]);
    if (m[2]) return t("{seat}: sing the forty", { seat: seat });
    if (m[3]) return t("{seat}: sing twenty in {suit}", { seat: seat, suit: words.suitWords(m[3]) });
    if (m[4]) return m[4] === "11" ? t("{seat}: sing tute of caballos", { seat: seat })
                                   : t("{seat}: sing tute of reyes", { seat: seat });
    return t("{seat}: exchange the {rank} for the muestra", { seat: seat, rank: m[5] });
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
      var named = window.TuteCards.cardWords(b.dataset.card);
      b.setAttribute("aria-label", gone ? t("{card} played", { card: named }) : named);
    });
    document.getElementById("declare").innerHTML = (state.declarations || []).map(function (d) {
      return '<button type="button" class="decl" data-entry="' + esc(d) + '">' + esc(declarationWords(d)) + "</button>";
    }).join("");
    drawNext();
    var done = document.getElementById("done");
    done.hidden = !state.over;
    if (state.over) {
      var link = { link: '<a id="archive-link" href="' + esc(state.deal_url) + '">' + esc(t("its page")) + "</a>" };
      done.innerHTML = esc(t("Deal over. Score {score} · Result {result}", { score: state.totals.join("–"),
                                                                               result: state.result })) + "<br>" +
        (!state.deal_url ? esc(t("Not stored yet: the archive could not be written; it is tried again at the next " +
                                 "entry."))
         : state.valid ? t("Validated and stored in the archive: valid, {link}", link)
         : t("Validated and stored in the archive: with errors, {link}", link));
    }
  }

  /* The scorer's state (the legal declarations too), read with the write key (or as this machine). */
  function scorerState() {
    fetch(base, { headers: headers(false) }).then(function (r) {
      if (r.status === 200) {
        return r.json().then(function (data) { if (data.entries >= state.entries) { state = data; draw(); } });
      }
      if (r.status === 403) document.getElementById("key-box").open = true;
    }, function () {});
  }

  /* Once the deal is over: what follows in the match, and the form that starts the next deal. */
  var nextForm = document.getElementById("next-form");
  function drawNext() {
    var next = state.next;
    nextForm.hidden = !next || !state.over;
    if (nextForm.hidden) return;
    var says = document.getElementById("next-says");
    if (next.winner) {
      says.textContent = t("The match is over: {side} wins, {standing}.", { side: window.TuteCards.seatWords(next.winner), standing: window.TuteCards.standingWords(next.standing) });
      nextForm.querySelector("label").hidden = document.getElementById("next-deal").hidden = true;
      return;
    }
    says.textContent = t("Match {standing}. Deal {number} is dealt by {dealer}.",
                         { standing: window.TuteCards.standingWords(next.standing), number: next.deal_no, dealer: window.TuteCards.seatWords(next.dealer) });
    if (next.id) {
      says.innerHTML = esc(says.textContent) + ' <a id="next-link" href="/record/' + encodeURIComponent(next.id) +
                       '">' + esc(t("Go to the next deal")) + "</a>";
      nextForm.querySelector("label").hidden = document.getElementById("next-deal").hidden = true;
    }
  }
  nextForm.addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (busy) return;
    busy = true;
    var turned = document.getElementById("next-turned").value.trim();
    post(base + "/next", turned ? { turned: turned } : {}).then(function (r) {
      busy = false;
      if (r.status === 201) { location.href = "/record/" + encodeURIComponent(r.data.id); return; }
      if (r.status === 401 || r.status === 403) document.getElementById("key-box").open = true;
      say(esc(r.status === 401 || r.status === 403 ?
              t("This needs the write key: enter it below. {detail}", { detail: r.data.detail }) : r.data.detail),
          "refused");
    }, function () { busy = false; say(esc(t("Not saved (the server did not answer): try again.")), "refused"); });
  });

  var busy = false;
  function send(url, body, undo) {
    if (busy) return;
    busy = true;
    say(esc(t("Saving…")), "pending");
    post(url, body).then(function (r) {
      busy = false;
      if (r.status === 200) {
        state = r.data.state;
        draw();
        say(esc(undo ? t("Undone: {entry}", { entry: r.data.message }) : r.data.message), "ok");
      } else if (r.status === 401 || r.status === 403) {
        document.getElementById("key-box").open = true;
        say(esc(t("This needs the write key: enter it below. {detail}", { detail: r.data.detail })), "refused");
      } else {
        /* the detail says why, already as "refused: ..." (no second "Refused:"); the legal choices come only with
         * the hands known (the seat's legal cards): with them unknown they would be every card not played yet */
        var item = (r.data.errors || [])[0];
        say(esc(r.data.detail) + (item && item.expected ? '<br><span class="legal">' +
            esc(t("Legal: {moves}", { moves: item.expected })) + "</span>" : ""), "refused");
      }
    }, function () { busy = false; say(esc(t("Not saved (the server did not answer): try again.")), "refused"); });
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
  scorerState();
  if (state.leader_unknown) say(esc(t("First deal of the match: tap the seat that leads, then its card.")), "pending");
})();
