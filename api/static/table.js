/* What the phone recorder and the live view both draw from a recording's state (GET /api/v1/recordings/{id}):
 * the seats (the one to play and the dealer marked), the score, who deals and the match so far, the trick number, the turned card, the stock and the trick on
 * the table.  It only displays what the state says.
 */
(function (root) {
  "use strict";
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (ch) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch];
    });
  }

  var SEAT_TAGS = { N: "North", W: "West", S: "South", E: "East" };

  function draw(box, state) {
    var $ = function (sel) { return box.querySelector(sel); };
    var words = root.TuteCards;  /* seats and suits in the page's language (cards.js) */
    $("#seats").innerHTML = state.seats.map(function (seat) {
      var name = state.tags[SEAT_TAGS[seat]] || "";
      var here = seat === state.to_move;
      return '<span class="seat-chip' + (here ? " to-move" : "") + (seat === state.dealer ? " to-deal" : "") +
             '" data-seat="' + seat + '"' +
             (here ? ' aria-current="true"' : "") + "><b>" + esc(words.seatWords(seat)) + "</b> " + esc(name) +
             (here ? ' <span class="sr">' + esc(t("to play")) + "</span>" : "") + "</span>";
    }).join("");
    var score = $("#score");
    var values = state.totals || state.points;
    score.innerHTML = state.sides.map(function (side, i) {
      return '<span class="side-score"><span class="side-label">' + esc(words.seatWords(side)) + '</span> <b data-side="' + side + '">' +
             values[i] + "</b></span>";
    }).join(" ");
    var info = [t("Dealt by {seat}", { seat: words.seatWords(state.dealer) })];
    if (state.tags.DealNo) info.push(t("deal {number} of the match", { number: state.tags.DealNo }));
    if (state.tags.MatchScore) info.push(t("match {standing}", { standing: window.TuteCards.standingWords(state.tags.MatchScore) }));
    $("#deal-info").textContent = info.join(" · ");
    $("#trick-no").textContent = state.trick_no;
    /* the trump suit as the state computes it (the replay's frame: in a match's first deal it may not be the
     * muestra's suit), then the muestra itself */
    $("#trump").innerHTML = root.TuteCards.suitSVG(state.trump, 14) + " " + esc(root.TuteCards.suitWords(state.trump));
    $("#turned").innerHTML = root.cardSVG(state.turned);
    $("#stock-box").hidden = state.stock === null;
    $("#stock").textContent = state.stock === null ? "" : state.stock;
    var table = $("#table");
    table.innerHTML = state.table.length ? state.table.map(function (play) {
      return '<span class="played" data-seat="' + play[0] + '" data-card="' + play[1] + '"><span class="who">' +
             esc(words.seatWords(play[0])) + "</span>" + root.cardSVG(play[1]) + "</span>";
    }).join("") + (state.winner ? '<span class="trick-won">' + esc(t("won by {seat}", { seat: words.seatWords(state.winner) })) +
                                  "</span>" : "")
      : '<span class="muted">' + esc(t("no card on the table yet")) + "</span>";
  }

  root.TuteTable = { draw: draw, esc: esc };
})(window);
