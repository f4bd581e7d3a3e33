/* Play against the machine (/play): the start form, then the table (/play/{id}).  The table's state comes with
 * the page and with every answer; the page draws it: the person's hand as cards to tap (only the legal ones
 * enabled), the trick, the muestra, the points, whose turn, the cantes, tute and exchange offered as buttons, and
 * "Pass" when the person may declare out of turn.  The bots play on the server.  A refused entry shows the reason
 * and changes nothing.  When the deal is over it is in the archive: a link opens its replay with the analysis.
 * Writes carry this browser's write key (writekey.js), or none from the service's own machine.
 */
(function () {
  "use strict";
  var headers = tuteWriteKey.headers;
  var words = window.TuteCards;

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function post(url, body) {
    return fetch(url, { method: "POST", headers: headers(true), body: JSON.stringify(body || {}) })
      .then(function (r) { return r.json().then(function (data) { return { status: r.status, data: data }; }); });
  }

  function needsKey(r) {
    return r.status === 401 || r.status === 403 ?
      t("This needs the write key: enter it below. {detail}", { detail: r.data.detail }) : r.data.detail;
  }

  /* -- /play: the start form ------------------------------------------------------------------------- */
  var form = document.getElementById("play-form");
  if (form) {
    var seats = JSON.parse(form.dataset.seats);
    form.elements.key.value = tuteWriteKey.get();
    form.elements.rules.addEventListener("change", function () {
      var chosen = form.elements.seat.value;
      var select = form.elements.seat;
      select.options.length = 0;
      seats[form.elements.rules.value].forEach(function (s) { select.add(new Option(s[1], s[0], false, s[0] === chosen)); });
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var f = form.elements;
      var body = { rules: f.rules.value, seat: f.seat.value, level: parseInt(f.level.value, 10),
                   match: f.length.value === "match" };
      if (f.name.value.trim()) body.name = f.name.value.trim();
      if (f.seed.value.trim()) body.seed = parseInt(f.seed.value, 10);
      tuteWriteKey.set(f.key.value);
      var error = document.getElementById("play-error");
      document.getElementById("sit").disabled = true;
      post("/api/v1/tables", body).then(function (r) {
        if (r.status === 201) { location.href = "/play/" + encodeURIComponent(r.data.id); return; }
        document.getElementById("sit").disabled = false;
        error.hidden = false;
        error.textContent = needsKey(r);
      });
    });
    return;
  }

  /* -- /play/{id}: the table ------------------------------------------------------------------------- */
  var box = document.getElementById("table");
  if (!box) return;
  var base = "/api/v1/tables/" + encodeURIComponent(box.dataset.id);
  var state = JSON.parse(box.dataset.state);
  var busy = false;
  var keyInput = document.getElementById("key");
  keyInput.value = tuteWriteKey.get();
  keyInput.addEventListener("change", function () { tuteWriteKey.set(keyInput.value); });

  function $(id) { return document.getElementById(id); }

  function say(text, kind) {
    var m = $("play-message");
    m.hidden = !text;
    m.textContent = text || "";
    m.className = "play-message" + (kind ? " " + kind : "");
  }

  /* A player's name; a bot's ends with the bot's own name, "Bot nivel 3 (heuristic)", which is kept in English. */
  function named(name) {
    var m = /^(.*\()([\w-]+)(\))$/.exec(name);
    return m ? esc(m[1]) + '<span lang="en">' + esc(m[2]) + "</span>" + esc(m[3]) : esc(name);
  }

  function seated(pairs) {
    return pairs.map(function (p) { return words.seatWords(p[0]) + " " + words.cardWords(p[1]); }).join(", ");
  }

  function draw() {
    var mine = state.to_move === state.seat || state.may_pass;
    box.dataset.version = state.version;
    box.dataset.over = state.over ? "true" : "false";
    box.dataset.waiting = state.options.length ? "true" : "false";
    $("play-turned").innerHTML = window.cardSVG(state.turned);
    $("play-trump").textContent = t("trump {suit}", { suit: words.suitWords(state.turned.slice(-1)) });
    $("play-stock").textContent = state.stock;
    $("play-stock-box").hidden = !state.stock;  /* four players deal every card: no stock */
    $("play-trick-no").textContent = Math.min(state.tricks + 1, Math.floor(40 / state.seats.length));
    $("play-points").textContent = state.points.map(function (p) {
      return words.seatWords(p[0]) + " " + p[1];
    }).join(" · ");
    var standing = $("play-standing");
    standing.hidden = !state.match;
    if (state.match && state.standing) {
      standing.textContent = t("Deal {n} · match {standing}", { n: state.deal_no, standing: words.standingWords(state.standing) });
    }
    $("play-seats").innerHTML = state.seats.map(function (s, i) {
      var who = s === state.seat ? (state.players[i] === t("You") ? "" : t("you")) : s === state.partner ? t("your partner") : "";
      return '<li class="seat-chip' + (s === state.to_move && !state.over ? " to-move" : "") + '" data-seat="' + s +
             '"><b>' + esc(words.seatWords(s)) + "</b> " + named(state.players[i]) + (who ? " <small>(" + esc(who) + ")</small>" : "") + "</li>";
    }).join("");
    $("play-trick").innerHTML = state.trick.map(function (p) {
      return '<figure class="slot" data-seat="' + p[0] + '" data-card="' + p[1] + '">' + window.cardSVG(p[1]) +
             "<figcaption>" + esc(words.seatWords(p[0])) + "</figcaption></figure>";
    }).join("");
    $("play-last").textContent = state.last.length ?
      t("Last trick: {cards}; won by {seat}", { cards: seated(state.last), seat: words.seatWords(state.last_winner) }) : "";
    $("play-turn").textContent = state.over ? "" :
      state.may_pass ? t("Your side won the trick: you may declare now, or pass.") :
      mine ? t("Your turn: tap a card.") : t("{seat} to play", { seat: words.seatWords(state.to_move) });
    var legal = {};
    state.cards.forEach(function (c) { legal[c] = true; });
    $("play-hand").innerHTML = state.hand.map(function (c) {
      return '<button type="button" class="pc" data-card="' + c + '" aria-label="' + esc(words.cardWords(c)) + '">' +
             window.cardSVG(c) + "</button>";
    }).join("");
    Array.prototype.forEach.call($("play-hand").querySelectorAll("button.pc"), function (b) {
      b.disabled = !legal[b.dataset.card];  /* only the legal cards may be tapped */
      b.classList.toggle("legal", !b.disabled);
    });
    $("play-declare").innerHTML = state.declarations.map(function (d) {
      return '<button type="button" class="decl" data-entry="' + esc(d.entry) + '">' + esc(d.words) + "</button>";
    }).join("");
    $("play-pass").hidden = !state.may_pass;
    var done = $("play-done");
    done.hidden = !state.over;
    if (state.over) {
      $("play-result").textContent = state.result;
      var link = $("play-deal-link");
      link.hidden = state.deal_id === null;
      if (state.deal_id !== null) link.href = "/deals/" + state.deal_id;
      $("play-not-stored").hidden = state.deal_id !== null;
      $("play-next").hidden = !state.match || !!state.winner;
      $("play-match-over").hidden = !state.winner;
      if (state.winner) {
        $("play-match-over").textContent = t("The match is over: {side} wins, {standing}.",
                                            { side: words.seatWords(state.winner), standing: words.standingWords(state.standing) });
      }
    }
  }

  function heard(said) {
    var list = $("play-said");
    said.forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      list.insertBefore(li, list.firstChild);
    });
    while (list.children.length > 12) list.removeChild(list.lastChild);
  }

  function send(url, body) {
    if (busy) return;
    busy = true;
    box.dataset.busy = "true";
    say(t("The bots are thinking…"), "pending");
    post(url, body).then(function (r) {
      busy = false;
      box.dataset.busy = "false";
      if (r.status === 200) {
        state = r.data.state;
        heard(r.data.said);
        say("");
        draw();
      } else if (r.status === 409) {
        location.reload();
      } else {
        if (r.status === 401 || r.status === 403) $("key-box").open = true;
        say(needsKey(r), "refused");
      }
    }, function () {
      busy = false;
      box.dataset.busy = "false";
      say(t("The server did not answer: try again."), "refused");
    });
  }

  $("play-hand").addEventListener("click", function (ev) {
    var b = ev.target.closest("button.pc");
    if (b && !b.disabled) send(base + "/entries", { entry: b.dataset.card });
  });
  $("play-declare").addEventListener("click", function (ev) {
    var b = ev.target.closest("button.decl");
    if (b) send(base + "/entries", { entry: b.dataset.entry });
  });
  $("play-pass").addEventListener("click", function () { send(base + "/entries", { entry: "" }); });
  $("play-next").addEventListener("click", function () { send(base + "/next", {}); });
  $("play-retry").addEventListener("click", function () { send(base + "/entries", { entry: "" }); });
  draw();
})();
