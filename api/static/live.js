/* The live view of a deal being recorded: follows the recording's events (Server-Sent Events) and draws the
 * table, the tricks, the declarations and the score as they come.  Read-only.
 */
(function () {
  "use strict";
  /* Every string this page's script shows, in one place (for the translation catalogue). */
  var TEXT = {
    live: "live", reconnecting: "reconnecting…", over: "deal over", stored: "The deal is over and stored in the archive:",
    archivePage: "see its page", result: "Result", score: "Score", none: "none yet", exchange: "exchanged"
  };
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
    }).join("") : '<li class="muted">' + TEXT.none + "</li>";
    document.getElementById("tricks").innerHTML = state.tricks.map(function (t, i) {
      return "<tr><td>" + (i + 1) + "</td><td>" + t.leader + '</td><td class="codes">' + t.cards.join(" ") +
             "</td><td>" + t.winner + "</td><td>" + t.points + "</td></tr>";
    }).join("");
    var done = document.getElementById("done");
    done.hidden = !state.over;
    if (state.over) {
      done.innerHTML = TEXT.score + " " + state.totals.join("–") + " · " + TEXT.result + " " + esc(state.result) +
        (state.deal_url ? "<br>" + TEXT.stored + ' <a id="archive-link" href="' + state.deal_url + '">' +
                          TEXT.archivePage + "</a>" : "");
      status.textContent = TEXT.over;
    }
  }

  draw(JSON.parse(box.dataset.state));
  if (box.querySelector("#archive-link")) return;
  var source = new EventSource("/api/v1/recordings/" + encodeURIComponent(box.dataset.id) + "/events");
  source.addEventListener("open", function () { status.textContent = TEXT.live; box.dataset.live = "open"; });
  source.addEventListener("error", function () { status.textContent = TEXT.reconnecting; });
  source.addEventListener("state", function (ev) { draw(JSON.parse(ev.data)); });
  source.addEventListener("end", function () { source.close(); });
})();
