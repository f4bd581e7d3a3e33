/* The deal's double-dummy analysis on the replay page: fetched from the API (polling its job when the
 * service answers 202), drawn as an evaluation graph (an inline SVG: per side, the points it ends with
 * under best play, as seen at each of its plays; a click on a point shows that play's frame), each card
 * of the move list marked with its cost and mark, the best cards on request, and par beside the result.
 * It only displays: every number comes from the analysis (GET /api/v1/deals/{id}/analysis).
 */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var box = document.getElementById("analysis");
  if (!root || !box || !root.dataset.analysisUrl) return;
  var status = document.getElementById("analysis-status");
  var POLL_MS = 500, W = 640, H = 180, PAD = 28;
  var SVG_NS = "http://www.w3.org/2000/svg";

  function say(text) { status.textContent = text; }

  function load(url) {
    fetch(url, { headers: { Accept: "application/json" } }).then(function (r) {
      return r.json().then(function (body) { return { status: r.status, body: body, where: r.headers.get("Location") }; });
    }).then(function (a) {
      if (a.status === 202 || (a.body && a.body.status === "running")) {
        say(t("Analysing the deal (double dummy)…"));
        setTimeout(function () { load(a.where || a.body.links.self); }, POLL_MS);
      } else if (a.status === 200 && a.body.status === "done") {
        draw(a.body.analysis);
      } else if (a.status === 200 && a.body.plays) {
        draw(a.body);
      } else {
        var failed = t("the service could not analyse it");
        say(t("No analysis: {reason}.", { reason: (a.body && (a.body.detail || a.body.error)) || failed }));
      }
    }).catch(function () {
      var unreachable = t("the service could not be reached");
      say(t("No analysis: {reason}.", { reason: unreachable }));
    });
  }

  function el(name, attrs) {
    var node = document.createElementNS(SVG_NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  /* The plays valued under double dummy (those made with stock left are not). */
  function valued(analysis) { return analysis.plays.filter(function (p) { return p.double_dummy; }); }

  /* The mover's side of a play, by number. */
  function sideOf(analysis, p) { return analysis.seat_sides[p.seat]; }

  /* The graph: x is the play, y the projected points of the mover's side; one line per side. */
  function graph(analysis) {
    var plays = valued(analysis);
    var top = Math.max.apply(null, plays.map(function (p) { return p.projected; }).concat([10]));
    var x = function (k) { return PAD + (plays.length < 2 ? 0 : k * (W - 2 * PAD) / (plays.length - 1)); };
    var y = function (v) { return H - PAD - v * (H - 2 * PAD) / top; };
    var svg = el("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "class": "eval",
                          "aria-label": t("Projected points of each side over the plays") });
    [0, top].forEach(function (v) {
      svg.appendChild(el("line", { x1: PAD, x2: W - PAD, y1: y(v), y2: y(v), "class": "axis" }));
      var label = el("text", { x: 2, y: y(v) + 4, "class": "axis-label" });
      label.textContent = String(v);
      svg.appendChild(label);
    });
    plays.forEach(function (p, k) {  // a tick at each trick's lead
      if (k > 0 && p.trick !== plays[k - 1].trick) {
        svg.appendChild(el("line", { x1: x(k), x2: x(k), y1: PAD / 2, y2: H - PAD, "class": "trick-tick" }));
      }
    });
    analysis.sides.forEach(function (label, s) {
      var pts = [];
      plays.forEach(function (p, k) { if (sideOf(analysis, p) === s) pts.push(x(k) + "," + y(p.projected)); });
      if (pts.length) svg.appendChild(el("polyline", { points: pts.join(" "), "class": "side-line side-" + s }));
    });
    plays.forEach(function (p, k) {
      var dot = el("circle", { cx: x(k), cy: y(p.projected), r: p.mark ? 6 : 4, tabindex: "0",
                               "class": "pt side-" + sideOf(analysis, p) + (p.mark ? " marked" : ""),
                               "data-frame": String(p.index + 1) });
      var tip = el("title", {});
      var params = { trick: p.trick, seat: analysis.seats[p.seat], card: p.card, side: analysis.sides[sideOf(analysis, p)],
                     points: p.projected, cost: p.cost, mark: p.mark || "" };
      tip.textContent = p.cost ? t("Trick {trick}: {seat} {card}, {side} ends with {points} (cost {cost} {mark})", params)
                               : t("Trick {trick}: {seat} {card}, {side} ends with {points}", params);
      dot.appendChild(tip);
      svg.appendChild(dot);
    });
    svg.addEventListener("click", function (ev) {
      var dot = ev.target.closest ? ev.target.closest("circle[data-frame]") : null;
      if (dot) root.dispatchEvent(new CustomEvent("tute:show", { detail: parseInt(dot.dataset.frame, 10) }));
    });
    svg.addEventListener("keydown", function (ev) {
      if ((ev.key === "Enter" || ev.key === " ") && ev.target.dataset && ev.target.dataset.frame) {
        ev.preventDefault();
        root.dispatchEvent(new CustomEvent("tute:show", { detail: parseInt(ev.target.dataset.frame, 10) }));
      }
    });
    return svg;
  }

  /* Each card of the move list: its cost (and mark), and its best cards, shown on request. */
  function markMoves(plays) {
    plays.forEach(function (p) {
      var b = root.querySelector('#moves button[data-index="' + (p.index + 1) + '"]');
      if (!b) return;
      var cost = document.createElement("span");
      cost.className = "dd" + (p.mark ? " dd-mark" : "") + (p.cost ? "" : " dd-best-play");
      cost.dataset.cost = String(p.cost);
      cost.textContent = (p.mark || "") + (p.cost ? " −" + p.cost : " ✓");
      cost.title = p.cost ? t("gave away {n} points under double dummy", { n: p.cost }) : t("a best card");
      var best = document.createElement("span");
      best.className = "dd-best";
      best.textContent = t("best {cards}", { cards: p.best.join(" ") });
      b.appendChild(cost);
      b.appendChild(best);
    });
  }

  function parLine(a) {
    var par = document.getElementById("par");
    if (!par) return;
    var sides = a.sides.map(function (s, k) {
      var d = a.actual_minus_par[k];
      return t("{side} {par} (made {made}, {difference})", { side: s, par: a.par[k], made: a.actual[k],
                                                             difference: (d > 0 ? "+" : d < 0 ? "−" : "±") + Math.abs(d) });
    }).join(", ");
    par.textContent = "· " + (a.cantes ? t("Par {sides}, cantes counted", { sides: sides }) : t("Par {sides}", { sides: sides }));
    par.hidden = false;
  }

  function draw(analysis) {
    var plays = valued(analysis);
    if (!plays.length) {
      say(t("Nothing to analyse: no card was played with every hand known (the stock was never empty)."));
      return;
    }
    var marks = { "??": 0, "?": 0, "?!": 0 };
    plays.forEach(function (p) { if (p.mark) marks[p.mark] += 1; });
    say(t("Par and each card's cost under double dummy (every hand visible), from trick {trick}. Costs: {costs}. " +
          "Marks: {blunders} ??, {mistakes} ?, {dubious} ?!.", {
      trick: plays[0].trick, costs: analysis.seats.map(function (s, k) { return s + " " + analysis.costs[k]; }).join(", "),
      blunders: marks["??"], mistakes: marks["?"], dubious: marks["?!"] }));
    document.getElementById("eval-graph").appendChild(graph(analysis));
    markMoves(plays);
    parLine(analysis);
    var tools = box.querySelector(".analysis-tools");
    tools.hidden = false;
    var toggle = document.getElementById("show-best");
    toggle.addEventListener("click", function () {
      var on = root.classList.toggle("show-best");
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      toggle.textContent = on ? t("Hide the best cards") : t("Show the best cards");
    });
    root.addEventListener("tute:frame", function (ev) { current(ev.detail); });
    current(parseInt(root.dataset.frame || "0", 10));
    root.dataset.analysis = "ready";
  }

  /* The graph's point of the play shown (the frame after it), highlighted. */
  function current(frame) {
    Array.prototype.forEach.call(box.querySelectorAll("circle[data-frame]"), function (dot) {
      dot.classList.toggle("current", parseInt(dot.dataset.frame, 10) === frame);
    });
  }

  load(root.dataset.analysisUrl);
})();
