/* A player's puzzles, one at a time (api/templates/puzzle.html).
 *
 * The page carries the puzzles WITHOUT their answers (#puzzles data-puzzles: tutepgn.archive.puzzles.Puzzle's
 * JSON, each with its one replay frame as the mover saw it).  Each puzzle is drawn on a board built from the
 * template #puzzle-board and handed to replay.js (TuteReplay.mount, as the validate page does), its legal cards
 * as buttons.  Only when a card is chosen does the script ask POST /api/v1/puzzles/{id}/answer, and then shows
 * right or wrong, the best cards, the explanation, the best line (on "ver la mejor línea") and "siguiente".
 */
(function () {
  "use strict";
  var box = document.getElementById("puzzles");
  if (!box) return;
  var puzzles = JSON.parse(box.dataset.puzzles || "[]");
  var slot = document.getElementById("puzzle-slot");
  var choices = document.getElementById("choices");
  var verdict = document.getElementById("verdict");
  var lineButton = document.getElementById("show-line");
  var line = document.getElementById("best-line");
  var noLine = document.getElementById("no-line");
  var at = 0;

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (ch) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch];
    });
  }

  function isCard(text) { return /^(1[0-2]|[1-7])[OCEB]$/.test(text); }

  function cardsHTML(codes) {
    return codes.map(function (c) {
      return '<span class="mini-card" title="' + esc(c) + '">' + cardSVG(c) + "</span> <b>" + esc(c) + "</b>";
    }).join(" ");
  }

  /* The board of puzzle p: its seats, the one frame, drawn by replay.js. */
  function board(p) {
    var frame = p.frame;
    var root = document.getElementById("puzzle-board").content.firstElementChild.cloneNode(true);
    root.dataset.frames = JSON.stringify([frame]);
    root.querySelector("#score").innerHTML = frame.sides.map(function (side) {
      return '<span class="side-score"><span class="side-label">' + esc(TuteCards.seatWords(side)) + '</span> <b data-side="' + esc(side) + '">0</b></span>';
    }).join("");
    var seats = root.querySelector("#board");
    seats.classList.add("players-" + frame.seats.length);
    seats.innerHTML = frame.seats.map(function (seat) {
      return '<section class="seat seat-' + esc(seat) + '" data-seat="' + esc(seat) + '"><div class="seat-label"><b>' +
             esc(TuteCards.seatWords(seat)) + "</b> " + esc(p.players[seat] || "") + ' <span class="seat-info"></span></div><div class="hand" data-seat="' +
             esc(seat) + '"></div></section>';
    }).join("") + '<div class="center"><div id="trick" class="trick"></div></div>';
    slot.innerHTML = "";
    slot.appendChild(root);
    TuteReplay.mount(root);
  }

  function show(k) {
    at = k;
    var p = puzzles[k];
    document.getElementById("puzzle-count").textContent = t("Puzzle {n} of {total}", { n: k + 1, total: puzzles.length });
    document.getElementById("puzzle-task").textContent = t("Trick {trick}: {seat} ({player}) to play", {
      trick: p.trick, seat: TuteCards.seatWords(p.seat), player: p.player });
    board(p);
    choices.innerHTML = p.legal.map(function (c) {
      return '<button type="button" class="choice" data-card="' + esc(c) + '" aria-label="' + esc(TuteCards.cardWords(c)) + '">' +
             cardSVG(c) + "<span>" + esc(TuteCards.cardWords(c)) + "</span></button>";
    }).join("");
    verdict.hidden = true;
    line.hidden = true;
    line.innerHTML = "";
    noLine.hidden = true;
    lineButton.hidden = true;
    lineButton.setAttribute("aria-expanded", "false");
    document.getElementById("verdict-word").textContent = "";
    document.getElementById("verdict-best").innerHTML = "";
    document.getElementById("verdict-text").textContent = "";
    document.getElementById("next-puzzle").hidden = puzzles.length < 2;
  }

  function answered(p, card, v) {
    Array.prototype.forEach.call(choices.querySelectorAll("button"), function (b) {
      b.disabled = true;
      var code = b.dataset.card;
      b.classList.toggle("chosen", code === card);
      b.classList.toggle("best", v.best.indexOf(code) >= 0);
      b.classList.toggle("played", code === v.played);
    });
    var word = document.getElementById("verdict-word");
    word.textContent = v.correct ? t("Right!") : t("Not the best card.");
    word.className = "verdict-word " + (v.correct ? "right" : "wrong");
    document.getElementById("verdict-best").innerHTML = esc(t("The best card:")) + " " + cardsHTML(v.best) + " · " +
      esc(t("you played:")) + " " + cardsHTML([v.played]);
    document.getElementById("verdict-text").textContent = v.explanation;
    if (v.best_line && v.best_line.length) {
      lineButton.hidden = false;
      line.innerHTML = v.best_line.map(function (step) {
        /* A step as version 2 writes it, mover first: "W 6E" (a card), "W 20C" (a cante). */
        var parts = /^(\S+) (.+)$/.exec(step);
        var what = parts ? parts[2] : step;
        var seat = parts ? '<span class="line-seat">' + esc(parts[1]) + "</span> " : "";
        return "<li>" + seat + "<b>" + esc(what) + "</b>" +
               (isCard(what) ? ' <span class="mini-card" title="' + esc(what) + '">' + cardSVG(what) + "</span>" : "") + "</li>";
      }).join("");
    } else {
      noLine.hidden = false;
    }
    document.getElementById("deal-link").href = "/deals/" + p.deal_id + "?frame=" + p.index;
    verdict.hidden = false;
  }

  function choose(card) {
    var p = puzzles[at];
    Array.prototype.forEach.call(choices.querySelectorAll("button"), function (b) { b.disabled = true; });
    var url = "/api/v1/puzzles/" + encodeURIComponent(p.id) + "/answer?lang=" + encodeURIComponent(window.TUTE_LANG || "es");
    fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
                 body: JSON.stringify({ card: card }) }).then(function (r) {
      return r.json().then(function (data) { return { ok: r.ok, data: data }; });
    }).then(function (answer) {
      if (!answer.ok) throw new Error(answer.data.detail || t("The answer could not be checked."));
      answered(p, card, answer.data);
    }).catch(function (err) {
      document.getElementById("verdict-word").textContent = String(err.message || err);
      verdict.hidden = false;
      Array.prototype.forEach.call(choices.querySelectorAll("button"), function (b) { b.disabled = false; });
    });
  }

  choices.addEventListener("click", function (ev) {
    var b = ev.target.closest("button[data-card]");
    if (b && !b.disabled) choose(b.dataset.card);
  });
  lineButton.addEventListener("click", function () {
    var open = line.hidden;
    line.hidden = !open;
    lineButton.setAttribute("aria-expanded", String(open));
  });
  document.getElementById("next-puzzle").addEventListener("click", function () { show((at + 1) % puzzles.length); });
  show(0);
})();
