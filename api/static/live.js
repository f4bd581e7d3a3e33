/* The live view of a deal being recorded: follows the recording's events (Server-Sent Events) and draws the
 * table, the tricks, the declarations and the score as they come.  Read-only.
 */
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box) return;
  var esc = window.TuteTable.esc;
  var status = document.getElementById("live-status");

  function draw(state) {
    window.TuteTable.draw(box, state);
    box.dataset.entries = state.entries;
    document.getElementById("last").textContent = state.last || "";
    var decl = state.cantes.concat(state.exchanges);
    document.getElementById("declarations").innerHTML = decl.length ? decl.map(function (d) {
      return "<li>" + esc(d) + "</li>";
    }).join("") : '<li class="muted">' + esc(t("none yet")) + "</li>";
    document.getElementById("tricks").innerHTML = state.tricks.map(function (trick, i) {
      return "<tr><td>" + (i + 1) + "</td><td>" + esc(window.TuteCards.seatWords(trick.leader)) +
             '</td><td class="codes notation">' + esc(trick.cards.join(" ")) + "</td><td>" +
             esc(window.TuteCards.seatWords(trick.winner)) + "</td><td>" + trick.points + "</td></tr>";
    }).join("");
    var done = document.getElementById("done");
    done.hidden = !state.over;
    if (state.over) {
      var seeIt = esc(t("see its page"));  // its own call: a message inside another's arguments is not extracted
      done.innerHTML = esc(t("Score {score} · Result {result}", { score: state.totals.join("–"),
                                                                   result: state.result })) +
        (state.deal_url ? "<br>" + t("The deal is over and stored in the archive: {link}", {
          link: '<a id="archive-link" href="' + esc(state.deal_url) + '">' + seeIt + "</a>" }) : "");
      status.textContent = t("deal over");
    }
  }

  draw(JSON.parse(box.dataset.state));
  if (box.querySelector("#archive-link")) return;
  var source = new EventSource("/api/v1/recordings/" + encodeURIComponent(box.dataset.id) + "/events");
  source.addEventListener("open", function () { status.textContent = t("live"); box.dataset.live = "open"; });
  source.addEventListener("error", function () { status.textContent = t("reconnecting…"); });
  source.addEventListener("state", function (ev) { draw(JSON.parse(ev.data)); });
  source.addEventListener("end", function () { source.close(); });
})();
