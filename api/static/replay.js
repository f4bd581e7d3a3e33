/* The deal replay: draws one frame of the deal (computed by the library, embedded in the page)
 * and steps through them with the buttons, the move list and the keyboard (←/→, Home/End).
 * It only displays: every number shown comes from the frames or the score sheet, and the record's
 * annotations (!, ?, $n) and comments are shown with the frame of the event they follow.
 */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var frames = JSON.parse(root.dataset.frames || "[]");
  var sheetTotals = JSON.parse(root.dataset.sheetTotals || "null");
  if (!frames.length) return;
  var last = frames.length - 1;
  var cur = -1;
  var SUIT_NAMES = { O: "oros", C: "copas", E: "espadas", B: "bastos" };
  var GLYPH_WORDS = { "!": "good", "?": "mistake", "!!": "very good", "??": "blunder", "!?": "interesting",
                      "?!": "dubious" };  // docs/notation.md, 4.3
  var $ = function (sel) { return root.querySelector(sel); };

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (ch) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch];
    });
  }

  /* Notation with the suit letters coloured, so that 10O (oros) does not read as 100. */
  function notation(text) {
    return esc(text).replace(/(\d)([OCEB])\b/g, '$1<span class="sl sl-$2">$2</span>');
  }

  function seatOf(text) { return text.split(" ")[0]; }
  function isPlay(f) { return /^\S+ (1[0-2]|[1-7])[OCEB]$/.test(f.text); }
  function isLead(f) { return isPlay(f) && !f.skipped && f.table.length === 1; }
  function sum(values) { return values.reduce(function (a, b) { return a + b; }, 0); }

  /* The record's annotations on an event, after its notation: "!" (good), "? $14". */
  function annotationHTML(f) {
    if (!f.annotation) return "";
    var glyph = f.annotation.split(" ")[0];
    var word = GLYPH_WORDS[glyph];
    return '<span class="annotation"' + (word ? ' title="' + word + '"' : "") + ">" + esc(f.annotation) + "</span>";
  }

  /* The record's comments on the frame's event (on the first frame: its comments on the deal). */
  function commentsHTML(f) {
    return f.comments.map(function (c) { return '<q class="comment">' + esc(c) + "</q>"; }).join(" ");
  }

  /* -- The move list ------------------------------------------------------------ */
  var moves = $("#moves");
  var items = [];
  (function buildMoves() {
    var html = '<li><button type="button" data-index="0" class="move start">start</button></li>';
    for (var i = 1; i <= last; i++) {
      var f = frames[i], cls = "move";
      var label = notation(f.text) + annotationHTML(f);
      if (isLead(f)) label = '<span class="trick-num">' + f.trick_no + ".</span> " + label;
      if (!isPlay(f)) cls += " decl";
      if (f.illegal) cls += " illegal";
      var title = f.illegal ? ' title="' + esc(f.illegal + " [" + f.rule + "]") + '"' : "";
      html += '<li><button type="button" data-index="' + i + '" class="' + cls + '"' + title + ">" + label +
              (f.comments.length ? ' <span class="has-comment" aria-label="commented">✎</span>' : "") +
              (f.illegal ? ' <span class="flag" aria-label="illegal">⚠</span>' : "") + "</button></li>";
    }
    moves.innerHTML = html;
    items = Array.prototype.slice.call(moves.querySelectorAll("button[data-index]"));
    moves.addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-index]");
      if (b) show(parseInt(b.dataset.index, 10));
    });
  })();

  /* -- Drawing one frame ------------------------------------------------------------ */
  function cardsHTML(codes) {
    if (!codes.length) return '<span class="empty">no cards</span>';
    return codes.map(function (c) { return '<span class="c">' + cardSVG(c) + "</span>"; }).join("");
  }

  function noteFor(i) {
    var f = frames[i], prev = frames[i - 1], parts = [];
    if (i === 0) {
      parts.push("The deal as dealt." + (f.to_move ? " " + f.to_move + " leads." : ""));
      return parts;
    }
    var seat = seatOf(f.text);
    if (f.illegal) {
      parts.push('<span class="illegal">Illegal: ' + esc(f.illegal) + ' <code>' + esc(f.rule || "") + "</code>" +
                 (f.skipped ? " — the event is skipped" : " — played as written") + "</span>");
    }
    if (f.cantes.length > prev.cantes.length) {
      var gain = sum(f.cante_points) - sum(prev.cante_points);
      var m = /(20|40)([OCEB])?$/.exec(f.text);
      var what = m && m[1] === "40" ? "las cuarenta (40 in trump, " + SUIT_NAMES[f.trump] + ")"
                                    : "20 in " + (m && m[2] ? SUIT_NAMES[m[2]] : "");
      parts.push('<span class="cante">' + esc(seat) + " sings " + what + (gain ? " (+" + gain + ")" : "") + "</span>");
    }
    if (f.exchanges.length > prev.exchanges.length) {
      var card = f.text.replace(/^\S+ x/, "");
      parts.push('<span class="exchange">' + esc(seat) + " exchanges " + notation(card) + " for the turned " +
                 notation(prev.turned) + "</span>");
    }
    if (/ tute /.test(f.text)) {
      parts.push('<span class="cante">' + esc(seat) + " announces tute of " +
                 (/12$/.test(f.text) ? "reyes" : "caballos") + "</span>");
    }
    if (f.winner) parts.push(esc(f.winner) + " wins trick " + f.trick_no + " (+" + f.trick_points + ")");
    if (!parts.length && isPlay(f)) parts.push(esc(seat) + " plays " + notation(f.text.split(" ")[1]));
    if (f.over) parts.push('<b class="over">Deal over' + (f.result ? ": " + esc(f.result) : "") + "</b>");
    return parts;
  }

  function show(i) {
    i = Math.max(0, Math.min(last, i));
    if (i === cur) return;
    cur = i;
    var f = frames[i];
    $("#frame-index").textContent = String(i);
    root.dataset.frame = String(i);

    // Hands, the seat to move, the trick winner.
    f.seats.forEach(function (seat, k) {
      var box = root.querySelector('.seat[data-seat="' + seat + '"]');
      if (!box) return;
      box.querySelector(".hand").innerHTML = cardsHTML(f.hands[k]);
      box.classList.toggle("to-move", f.to_move === seat);
      box.classList.toggle("trick-winner", f.winner === seat);
      box.querySelector(".seat-info").textContent = f.hands[k].length + " cards" +
        (f.to_move === seat ? " · to play" : "");
    });

    // The trick on the table.
    var lastPlayed = isPlay(f) && !f.skipped ? seatOf(f.text) : null;
    $("#trick").innerHTML = f.table.map(function (pair) {
      var cls = "slot slot-" + pair[0] + (pair[0] === lastPlayed ? " last" : "") + (f.winner === pair[0] ? " win" : "");
      return '<div class="' + cls + '" data-seat="' + esc(pair[0]) + '">' + cardSVG(pair[1]) +
             '<span class="slot-seat">' + esc(pair[0]) + "</span></div>";
    }).join("");

    // Trump, turned card, stock, trick number.
    $("#trump").innerHTML = TuteCards.suitSVG(f.trump, 14) + " " + (SUIT_NAMES[f.trump] || f.trump);
    $("#turned").innerHTML = cardSVG(f.turned);
    if (f.stock !== null && f.stock !== undefined) {
      $("#stock-box").hidden = false;
      $("#stock").textContent = String(f.stock);
      $("#stock-card").innerHTML = f.stock > 0 ? backSVG() : "";
      $("#turned").classList.toggle("gone", f.stock === 0);
    }
    $("#trick-no").textContent = String(f.trick_no);

    // The running score: points so far; at the last frame, the score sheet's totals.
    var values = (i === last && sheetTotals) ? sheetTotals : (f.over && f.totals) ? f.totals : f.points;
    f.sides.forEach(function (side, k) {
      var el = root.querySelector('#score [data-side="' + side + '"]');
      if (el) el.textContent = String(values[k]);
    });
    root.querySelector("#score").classList.toggle("final", i === last && (f.over || !!sheetTotals));

    // What happened, and the declarations so far.
    var note = $("#note");
    note.innerHTML = noteFor(i).join(" · ") +
      (f.annotation || f.comments.length ? '<p class="record-note">' + (f.annotation ? '<span class="noted">' +
        notation(f.text) + annotationHTML(f) + "</span> " : "") + commentsHTML(f) + "</p>" : "");
    note.classList.toggle("has-illegal", !!f.illegal);
    var decl = [];
    f.cantes.forEach(function (c) { decl.push('<li class="cante">' + notation(c) + "</li>"); });
    f.exchanges.forEach(function (x) { decl.push('<li class="exchange">' + notation(x) + "</li>"); });
    $("#declarations").innerHTML = decl.length ? "<h2>Cantes and exchanges</h2><ul>" + decl.join("") + "</ul>" : "";

    // The move list and the buttons.
    items.forEach(function (b) {
      var on = parseInt(b.dataset.index, 10) === i;
      b.classList.toggle("current", on);
      if (on) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
    var active = items[i];
    if (active) {
      var li = active.parentNode, top = li.offsetTop - moves.offsetTop;
      if (top < moves.scrollTop || top + li.offsetHeight > moves.scrollTop + moves.clientHeight) {
        moves.scrollTop = Math.max(0, top - moves.clientHeight / 2);
      }
    }
    $("#first").disabled = $("#prev").disabled = i === 0;
    $("#next").disabled = $("#last").disabled = i === last;
    var sheet = document.getElementById("final-sheet");
    if (sheet) sheet.hidden = i !== last;
    if (history.replaceState) history.replaceState(null, "", "#frame-" + i);
    root.dispatchEvent(new CustomEvent("tute:frame", { detail: i }));  // analysis.js follows the frame
  }

  /* -- Controls ------------------------------------------------------------------- */
  $("#first").addEventListener("click", function () { show(0); });
  $("#prev").addEventListener("click", function () { show(cur - 1); });
  $("#next").addEventListener("click", function () { show(cur + 1); });
  $("#last").addEventListener("click", function () { show(last); });
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var to = { ArrowRight: cur + 1, ArrowLeft: cur - 1, Home: 0, End: last }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    show(to);
  });

  root.addEventListener("tute:show", function (ev) { show(ev.detail); });  // analysis.js's graph asks

  var m = /^#frame-(\d+)$/.exec(location.hash);
  show(m ? parseInt(m[1], 10) : 0);
})();
