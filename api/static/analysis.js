/* The deal's analysis on the replay page, in words a player reads.  It only displays: every number comes from the
 * analysis (GET /api/v1/deals/{id}/analysis, its job polled when the service answers 202; the JSON form's keys:
 * tutepgn/analysis/model.py, version 2).  What it draws:
 *   - the graph (an inline SVG): per side, its chance of winning the deal at the start of each trick (`win_graph`)
 *     or, on the other view, the points it ends with under best play, cantes counted (`trick_values`); a legend
 *     (each side's colour and name), the axes' words, and one point per card played under the plot (a marked card
 *     larger): a click, Enter or space on it shows that card's frame;
 *   - each card of the move list with its mark as a word (imprecisión, error, error grave) beside the symbol;
 *   - under the board, the judgement of the card just played (#play-analysis): the chance of winning the deal it
 *     lost (`loss`, in percentage points), its cost split into what the player could know (`pimc_cost`) and what
 *     luck hid (`luck`, the cards seen a cartas vistas), "exacta" when the mover could know every card, the best
 *     cards, and "See the best line";
 *   - the outcome beside par, each seat's accuracy, and the match's chances when the analysis has them.
 * A key the analysis lacks (an older version) leaves its part out.
 *
 * The best line (`best_line`: action texts, "12C" or "N 12C" for a card, "N:40" or "N 40" for a declaration) is put
 * on the board by the service, not computed here: a record made of the deal's tags (Score and Result left out), its
 * events before the card and the line is posted to POST /api/v1/replay, which answers its frames; each trick of
 * the notation names its leader, which is the last trick's winner, so the record is posted once per new trick of
 * the line and the winner read from the answer's last frame (a line is at most ten tricks: at most eleven posts).
 * A line is read as starting with a best card (the solver's line from the position before the card); if the replay
 * finds it illegal so, as the rest after the first best card.
 * replay.js draws those frames on the same board ("tute:line") and "Back to the game" (or Esc) brings the deal
 * back at the frame shown before ("tute:leave").
 */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var box = document.getElementById("analysis");
  if (!root || !box || !root.dataset.analysisUrl) return;
  var status = document.getElementById("analysis-status");
  var panel = document.getElementById("play-analysis");
  var lineBar = document.getElementById("line-bar");
  var POLL_MS = 500;
  var SVG_NS = "http://www.w3.org/2000/svg";
  var MARK_WORDS = { "?!": t("inaccuracy"), "?": t("mistake"), "??": t("blunder") };
  var frames = JSON.parse(root.dataset.frames || "[]");
  var analysis = null, byFrame = {}, view = "win", line = null;

  function say(text) { status.textContent = text; }

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (ch) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch];
    });
  }

  function has(value) { return value !== undefined && value !== null; }
  function pct(p) { return Math.round(100 * p); }
  var DECIMAL = new Intl.NumberFormat(window.TUTE_LANG || "en", { maximumFractionDigits: 1 });
  function num(v) { return DECIMAL.format(v); }          // 6.5 in English, 6,5 in Spanish
  function pp(loss) { return num(100 * loss); }          // a loss of 0..1 in percentage points

  function load(url) {
    fetch(url, { headers: { Accept: "application/json" } }).then(function (r) {
      return r.json().then(function (body) { return { status: r.status, body: body, where: r.headers.get("Location") }; });
    }).then(function (a) {
      if (a.status === 202 || (a.body && a.body.status === "running")) {
        say(t("Analysing the deal…"));
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

  function el(name, attrs, text) {
    var node = document.createElementNS(SVG_NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (has(text)) node.textContent = text;
    return node;
  }

  /* The plays the analysis valued (every one in version 2; in version 1 those made once the stock was empty). */
  function valued() {
    return analysis.plays.filter(function (p) { return has(p.win_before) || has(p.value) || p.double_dummy; });
  }

  function sideOf(p) { return analysis.seat_sides[p.seat]; }

  /* A graph's series as [position][side] (the JSON's own order), or null without it. */
  function series(which) {
    var s = which === "win" ? analysis.win_graph : analysis.trick_values;
    if (!s || !s.length) return null;
    return s.map(function (row) { return row.map(function (v) { return which === "win" ? 100 * v : v; }); });
  }

  /* -- The graph ------------------------------------------------------------------------------------------ */
  function graph(which) {
    var rows = series(which), plays = valued();
    var width = Math.max(300, Math.min(720, document.getElementById("eval-graph").clientWidth || 640));
    var left = 34, right = 10, top = 10, plotH = width < 500 ? 150 : 180;
    var bottom = top + plotH, stripY = bottom + 30, height = stripY + 14;
    var tricks = plays.length ? plays[plays.length - 1].trick : rows.length - 1;
    var first = Math.max(0, tricks - (rows.length - 1));  // tricks played before the graph's first position
    var x = function (tr) { return left + tr * (width - left - right) / Math.max(1, tricks); };
    var most = which === "win" ? 100 : Math.max.apply(null, [10].concat.apply([], rows));
    var y = function (v) { return bottom - v * plotH / most; };
    var svg = el("svg", { viewBox: "0 0 " + width + " " + height, width: width, height: height, role: "img",
                          "class": "eval eval-" + which, "aria-label": which === "win"
                            ? t("Each side's chance of winning the deal, trick by trick")
                            : t("The points each side ends the deal with under best play, trick by trick") });
    var ticks = which === "win" ? [0, 50, 100] : [0, Math.round(most / 2), most];
    ticks.forEach(function (v) {
      svg.appendChild(el("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), "class": "axis" }));
      svg.appendChild(el("text", { x: left - 4, y: y(v) + 4, "class": "axis-label", "text-anchor": "end" },
                         which === "win" ? v + "%" : String(v)));
    });
    for (var k = 1; k <= tricks; k++) {  // each trick between two lines, its number under it
      svg.appendChild(el("line", { x1: x(k), x2: x(k), y1: top, y2: bottom, "class": "trick-tick" }));
      svg.appendChild(el("text", { x: (x(k - 1) + x(k)) / 2, y: bottom + 16, "class": "axis-label",
                                   "text-anchor": "middle" }, String(k)));
    }
    analysis.sides.forEach(function (label, s) {
      var pts = rows.map(function (row, j) { return x(first + j) + "," + y(row[s]); });
      svg.appendChild(el("polyline", { points: pts.join(" "), "class": "side-line side-" + s }));
    });
    svg.appendChild(el("line", { x1: left, x2: width - right, y1: stripY, y2: stripY, "class": "strip" }));
    var perTrick = analysis.seats.length;
    plays.forEach(function (p) {
      var place = analysis.plays.filter(function (q) { return q.trick === p.trick && q.index < p.index; }).length;
      var dot = el("circle", { cx: x(p.trick - 1 + (place + 0.5) / perTrick), cy: stripY, r: p.mark ? 6 : 3.5,
                               tabindex: "0", role: "button", "class": "pt side-" + sideOf(p) + (p.mark ? " marked" : ""),
                               "data-frame": String(p.index + 1) });
      dot.appendChild(el("title", {}, playSentence(p)));
      svg.appendChild(dot);
    });
    return svg;
  }

  function drawGraph() {
    var holder = document.getElementById("eval-graph");
    holder.textContent = "";
    holder.appendChild(graph(view));
    document.getElementById("graph-y").textContent = view === "win" ? t("↑ chance of winning the deal (%)")
      : analysis.cantes ? t("↑ points with cantes, under best play") : t("↑ points, under best play");
    Array.prototype.forEach.call(box.querySelectorAll(".graph-views button"), function (b) {
      b.setAttribute("aria-pressed", b.dataset.view === view ? "true" : "false");
    });
    current(parseInt(root.dataset.frame || "0", 10));
  }

  function legend() {
    var list = document.getElementById("graph-legend");
    var names = analysis.sides.map(function (side, s) {
      var seats = analysis.seats.filter(function (seat, k) { return analysis.seat_sides[k] === s; });
      var who = seats.map(function (seat) {
        var box = root.querySelector('.seat[data-seat="' + seat + '"]');
        return window.TuteCards.seatWords(seat) + (box && box.dataset.player ? " " + box.dataset.player : "");
      });
      return '<li><span class="swatch side-' + s + '"></span> <b>' + esc(window.TuteCards.seatWords(side)) + "</b> " + esc(who.join(" · ")) + "</li>";
    });
    names.push('<li><span class="swatch-dot"></span> ' + esc(t("a card played")) + '</li><li><span class="swatch-dot marked"></span> ' +
               esc(t("a card marked")) + "</li>");
    list.innerHTML = names.join("");
  }

  /* -- Words for one play ----------------------------------------------------------------------------------- */
  function markText(p) { return p.mark ? MARK_WORDS[p.mark] + " (" + p.mark + ")" : ""; }

  /* The play in a sentence: its mark in words (left out when `bare`: the words are shown beside it), what it lost. */
  function playSentence(p, bare) {
    var words = window.TuteCards;  /* seats and cards in the page's language (cards.js) */
    var params = { trick: p.trick, seat: words.seatWords(analysis.seats[p.seat]), card: words.cardWords(p.card),
                   mark: markText(p) };
    if (has(p.loss)) {
      params.loss = pp(p.loss);
      params.before = pct(p.win_before);
      params.after = pct(p.win_after);
      if (bare && p.mark) return t("Trick {trick}: {seat} {card}: {loss} points of the chance of winning the deal lost ({before}% → {after}%)", params);
      return p.mark ? t("Trick {trick}: {seat} {card}, {mark}: {loss} points of the chance of winning the deal lost ({before}% → {after}%)", params)
                    : t("Trick {trick}: {seat} {card}: chance of winning the deal {before}% → {after}%", params);
    }
    params.cost = p.cost;
    return p.cost ? t("Trick {trick}: {seat} {card}, {mark} gave away {cost} points a cartas vistas", params)
                  : t("Trick {trick}: {seat} {card}, a best card", params);
  }

  /* Each card of the move list: its mark as a word, and its best cards, shown on request. */
  function markMoves() {
    valued().forEach(function (p) {
      var b = root.querySelector('#moves button[data-index="' + (p.index + 1) + '"]');
      if (!b) return;
      var tag = document.createElement("span");
      tag.className = "dd" + (p.mark ? " dd-mark" : "") + (p.mark || p.cost ? "" : " dd-best-play");
      tag.dataset.mark = p.mark || "";
      tag.textContent = p.mark ? p.mark + " " + MARK_WORDS[p.mark] : (p.cost || (has(p.loss) && p.loss > 0)) ? "" : "✓";
      tag.title = playSentence(p);
      b.appendChild(tag);
      if (p.best && p.best.length) {
        var best = document.createElement("span");
        best.className = "dd-best";
        best.textContent = t("best {cards}", { cards: p.best.map(window.TuteCards.cardWords).join(", ") });
        b.appendChild(best);
      }
    });
  }

  /* The card just played (the frame after it), judged under the board. */
  function judge(frame) {
    var p = byFrame[frame];
    if (!p || line) { panel.hidden = true; panel.textContent = ""; return; }
    var parts = ['<p class="verdict">' + (p.mark ? '<b class="mark-word mark-' + (p.mark === "??" ? "blunder" : p.mark === "?" ? "mistake" : "inaccuracy") +
                 '">' + esc(MARK_WORDS[p.mark]) + " " + esc(p.mark) + "</b> " : "") + esc(playSentence(p, true)) +
                 (p.exact ? ' <span class="chip exact" title="' + esc(t("the player could know every card")) + '">' + esc(t("exact")) + "</span>" : "") + "</p>"];
    var split = [];
    if (has(p.pimc_cost)) split.push(t("what the player could know: {points} points lost", { points: num(p.pimc_cost) }));
    if (has(p.luck)) split.push(t("what luck hid: {points} points", { points: num(p.luck) }));
    if (has(p.cost) && has(p.pimc_cost)) split.push(t("a cartas vistas: {points} points", { points: num(p.cost) }));
    if (split.length) parts.push('<p class="split">' + esc(split.join(" · ")) + "</p>");
    var more = [];
    if (p.best && p.best.length) more.push(esc(t("best {cards}", { cards: p.best.map(window.TuteCards.cardWords).join(", ") })));
    if (has(p.accuracy)) more.push(esc(t("accuracy {n}%", { n: Math.round(p.accuracy) })));
    if (p.best_line && p.best_line.length && root.dataset.recordHead) {
      more.push('<button type="button" class="see-line" data-play="' + p.index + '">' + esc(t("See the best line")) + "</button>");
    }
    if (more.length) parts.push('<p class="more">' + more.join(" · ") + "</p>");
    panel.innerHTML = parts.join("");
    panel.hidden = false;
  }

  /* -- The outcome, par, accuracy and the match ------------------------------------------------------------ */
  function parLine() {
    var par = document.getElementById("par");
    if (!par || !analysis.par) return;
    var sides = analysis.sides.map(function (s, k) {
      var d = analysis.actual_minus_par[k];
      return t("{side} {par} (made {made}, {difference})", { side: window.TuteCards.seatWords(s), par: analysis.par[k], made: analysis.actual[k],
                                                             difference: (d > 0 ? "+" : d < 0 ? "−" : "±") + Math.abs(d) });
    }).join(", ");
    par.textContent = "· " + (analysis.cantes ? t("Par {sides}, cantes counted", { sides: sides }) : t("Par {sides}", { sides: sides }));
    par.hidden = false;
  }

  function summary() {
    var out = [], a = analysis;
    if (a.outcome) {
      var o = a.outcome, totals = (o.totals || a.totals || []).join("–");
      var how = o.tute ? t("by a tute") : o.doubled ? t("doubled") : "";
      out.push("<p>" + esc(has(o.winner) ? t("Outcome: {side} wins the deal, {totals}", { side: window.TuteCards.seatWords(a.sides[o.winner]), totals: totals })
                                         : t("Outcome: no side wins the deal, {totals}", { totals: totals })) +
               (how ? " (" + esc(how) + ")" : "") + (a.par ? " · " + esc(t("par {sides}", { sides: a.sides.map(function (s, k) {
                 return window.TuteCards.seatWords(s) + " " + a.par[k]; }).join(", ") })) : "") + "</p>");
    }
    if (a.accuracy) {
      var acc = a.seats.map(function (seat, k) {
        return '<span class="acc">' + esc(window.TuteCards.seatWords(seat)) + " <b>" + (has(a.accuracy[k]) ? Math.round(a.accuracy[k]) + "%" : "—") + "</b></span>";
      });
      out.push('<p class="accuracy">' + esc(t("Accuracy")) + " " + acc.join(" ") + "</p>");
    }
    if (a.match) {
      var m = a.match, side = function (v, k) { return Array.isArray(v) ? v[k] : (k === 0 ? v : 1 - v); };
      var rows = a.sides.map(function (s, k) {
        return esc(t("{side} {before}% → {after}%", { side: window.TuteCards.seatWords(s), before: pct(side(m.win_before, k)), after: pct(side(m.win_after, k)) }));
      });
      out.push('<p class="match-chance">' + esc(t("Chance of winning the match (to {target}), before and after this deal:", { target: m.target })) +
               " " + rows.join(" · ") + "</p>");
    }
    var holder = document.getElementById("analysis-summary");
    holder.innerHTML = out.join("");
    holder.hidden = !out.length;
  }

  /* -- The best line ---------------------------------------------------------------------------------------- */
  function isPlay(f) { return /^\S+ (1[0-2]|[1-7])[OCEB]$/.test(f.text); }

  /* The record's movetext up to frame `upto` (its events), as lines: each trick "n. LEADER cards", a
   * declaration on a line of its own. */
  function movetext(upto) {
    var lines = [];
    for (var i = 1; i <= upto; i++) {
      var f = frames[i];
      if (f.skipped) continue;
      var parts = f.text.split(" ");
      if (isPlay(f) && f.table.length === 1) lines.push(f.trick_no + ". " + f.text);
      else if (isPlay(f)) lines[lines.length - 1] += " " + parts[1];
      else lines.push(f.text);
    }
    return lines;
  }

  function head() {
    return JSON.parse(root.dataset.recordHead || '""').split("\n").filter(function (l) { return !/^\[(Score|Result) /.test(l); }).join("\n");
  }

  function replayed(lines) {
    return fetch("/api/v1/replay", { method: "POST", headers: { "Content-Type": "text/plain; charset=utf-8" },
                                     body: head() + "\n\n" + lines.join("\n") + "\n*\n" }).then(function (r) {
      return r.json().then(function (body) {
        var board = body.boards && body.boards[0];
        if (!r.ok || !board || !board.frames.length) throw new Error((board && board.error) || (body && body.detail) || String(r.status));
        return board.frames;
      });
    });
  }

  /* A line's action as the record writes it: a card alone ("N 12C", "N:12C" or "12C": "12C"; the trick says who
   * plays it), a declaration with its seat ("N:40" or "N 40": "N 40"). */
  function action(text) {
    var card = /^(?:\S+[ :])?((?:1[0-2]|[1-7])[OCEB])$/.exec(text);
    return card ? card[1] : text.replace(":", " ");
  }

  /* The ways to read the line's actions, the likelier first: it starts with a best card (the solver's line from
   * the position before the card), or it is the rest after the first best card. */
  function readings(p) {
    var acts = p.best_line.map(action), after = p.best && p.best.length ? [p.best[0]].concat(acts) : null;
    var first = p.best && p.best.indexOf(acts[0]) >= 0;
    return (first ? [acts, after] : [after, acts]).filter(function (r) { return r; });
  }

  /* Post the record trick by trick (each new trick's leader is the last one's winner); the frames at the end. */
  function lineFrames(p, acts) {
    var lines = movetext(p.index), known = frames[p.index], players = frames[0].seats.length;
    var k = 0, trickNo = known.trick_no + 1;  // the number of the line's next new trick
    function step(state) {
      var pending = false;
      while (k < acts.length) {
        var act = acts[k];
        if (!/^(1[0-2]|[1-7])[OCEB]$/.test(act)) { lines.push(act); k++; pending = true; continue; }
        var open = state.table.length > 0 && state.table.length < players;
        if (!open && pending) return replayed(lines).then(function (got) { return step(got[got.length - 1]); });
        if (open) lines[lines.length - 1] += " " + act;
        else { lines.push(trickNo + ". " + state.to_move + " " + act); trickNo++; }
        state = { table: open ? state.table.concat([[state.to_move, act]]) : [[state.to_move, act]], to_move: null };
        k++;
        pending = true;
      }
      return replayed(lines);
    }
    return step({ table: known.table.length === players ? [] : known.table, to_move: known.to_move });
  }

  function showLine(p) {
    var button = panel.querySelector("button.see-line");
    if (button) button.disabled = true;
    var ways = readings(p);
    function legal(got) { return got.slice(p.index + 1).every(function (f) { return !f.illegal; }); }
    lineFrames(p, ways[0]).then(function (got) {  // a line the replay finds illegal is read the other way
      return legal(got) || ways.length < 2 ? got : lineFrames(p, ways[1]).then(function (other) { return legal(other) ? other : got; });
    }).then(function (got) {
      line = { play: p, from: p.index, count: got.length - 1 - p.index };
      lineBar.hidden = false;
      root.dispatchEvent(new CustomEvent("tute:line", { detail: { frames: got, from: p.index } }));
      document.getElementById("line-leave").focus();
    }).catch(function (err) {
      if (button) button.disabled = false;
      say(t("No best line: {reason}.", { reason: err.message || t("the service could not be reached") }));
    });
  }

  function leaveLine() {
    if (!line) return;
    line = null;
    lineBar.hidden = true;
    root.dispatchEvent(new CustomEvent("tute:leave"));
    var again = panel.querySelector("button.see-line");
    if (again) again.focus();
  }

  function lineStep(frame) {
    document.getElementById("line-text").textContent = t("The best line instead of {seat}'s {card}: step {step} of {steps} (← →)", {
      seat: analysis.seats[line.play.seat], card: line.play.card, step: frame - line.from, steps: line.count });
  }

  /* -- Putting it together ---------------------------------------------------------------------------------- */
  function draw(a) {
    analysis = a;
    var plays = valued();
    if (!plays.length) {
      say(t("Nothing to analyse: no card was played with every hand known (the stock was never empty)."));
      return;
    }
    plays.forEach(function (p) { byFrame[p.index + 1] = p; });
    var marks = { "??": 0, "?": 0, "?!": 0 };
    plays.forEach(function (p) { if (p.mark) marks[p.mark] += 1; });
    var counted = ["??", "?", "?!"].map(function (m) { return MARK_WORDS[m] + " (" + m + "): " + marks[m]; }).join(" · ");
    say(t("Marks: {marks}.", { marks: counted }) + " " +
      (has(a.worlds) && a.worlds ? t("Each card is valued from what its player could know ({worlds} deals of the hidden cards, seed {seed}), and a cartas vistas beside it.", { worlds: a.worlds, seed: a.seed })
                                  : t("Each card is valued a cartas vistas (every hand visible).")));
    if (!series("win")) view = "points";
    var figure = document.getElementById("eval-figure");
    figure.hidden = false;
    Array.prototype.forEach.call(box.querySelectorAll(".graph-views button"), function (b) {
      b.hidden = !series(b.dataset.view);
      if (b.dataset.view === "points" && !a.cantes) b.textContent = t("Points");
      b.addEventListener("click", function () { view = b.dataset.view; drawGraph(); });
    });
    legend();
    drawGraph();
    markMoves();
    parLine();
    summary();
    var svgBox = document.getElementById("eval-graph");
    svgBox.addEventListener("click", function (ev) {
      var dot = ev.target.closest ? ev.target.closest("circle[data-frame]") : null;
      if (dot) { leaveLine(); root.dispatchEvent(new CustomEvent("tute:show", { detail: parseInt(dot.dataset.frame, 10) })); }
    });
    svgBox.addEventListener("keydown", function (ev) {
      if ((ev.key === "Enter" || ev.key === " ") && ev.target.dataset && ev.target.dataset.frame) {
        ev.preventDefault();
        leaveLine();
        root.dispatchEvent(new CustomEvent("tute:show", { detail: parseInt(ev.target.dataset.frame, 10) }));
      }
    });
    var toggle = document.getElementById("show-best");
    toggle.addEventListener("click", function () {
      var on = root.classList.toggle("show-best");
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      toggle.textContent = on ? t("Hide the best cards") : t("Show the best cards");
    });
    panel.addEventListener("click", function (ev) {
      var b = ev.target.closest ? ev.target.closest("button.see-line") : null;
      if (b) showLine(analysis.plays.filter(function (p) { return p.index === parseInt(b.dataset.play, 10); })[0]);
    });
    document.getElementById("line-leave").addEventListener("click", leaveLine);
    root.addEventListener("click", function (ev) {  // a card of the deal's move list: the deal again, at that card
      if (line && ev.target.closest && ev.target.closest("#moves button[data-index]")) leaveLine();
    }, true);
    document.addEventListener("keydown", function (ev) { if (ev.key === "Escape" && line) { ev.preventDefault(); leaveLine(); } });
    var resized = null;
    window.addEventListener("resize", function () { clearTimeout(resized); resized = setTimeout(drawGraph, 150); });
    root.addEventListener("tute:frame", function (ev) {
      if (line) { panel.hidden = true; lineStep(ev.detail); return; }
      current(ev.detail);
      judge(ev.detail);
    });
    current(parseInt(root.dataset.frame || "0", 10));
    judge(parseInt(root.dataset.frame || "0", 10));
    root.dataset.analysis = "ready";
  }

  /* The graph's point of the card shown (the frame after it), highlighted. */
  function current(frame) {
    Array.prototype.forEach.call(box.querySelectorAll("circle[data-frame]"), function (dot) {
      dot.classList.toggle("current", parseInt(dot.dataset.frame, 10) === frame);
    });
  }

  load(root.dataset.analysisUrl);
})();
