/* The deal replay: draws one frame of the deal (computed by the library, embedded in the page) on the table
 * and steps through them with the buttons, the move list, the keyboard (←/→, Home/End, space: play/pause)
 * and autoplay.  It only displays: every number shown comes from the frames or the score sheet, and the
 * record's annotations (!, ?, $n) and comments are shown with the frame of the event they follow.
 *
 * The entry point (kept stable: api/templates/deal.html and the validate page's board use it):
 *   <div id="replay" data-frames='[...]' data-sheet-totals='[...]|null' data-last-ten='10|null'
 *        data-analysis-url="...(optional)"> with the board's elements inside (deal.html's #replay block:
 *   #first #prev #next #last #play #speed #view-seat #frame-index #frame-count #score [data-side], #trump
 *   #turned #stock-box #stock #stock-card #trick-no #note #board .seat[data-seat] .hand .seat-info #trick
 *   #last-ten #position #position-link #moves #declarations #final-sheet; any of the optional ones may be
 *   left out).  data-frames is the list of `tutepgn.check.replay.frame_data` dicts, each with its "position"
 *   string (tutepgn.check.moment) when known.  The script draws the first #replay of the page when it loads;
 *   TuteReplay.mount(element) draws another root (a page that builds its board later calls it).
 *   Events on the root: "tute:frame" (detail: the frame shown, sent), "tute:show" (detail: a frame to show,
 *   received), "tute:line" (detail: {frames, from}: another line of play drawn on the same board, from frame
 *   `from`, until "tute:leave" brings the deal back at the frame shown before; analysis.js's best line).
 *   While a line is shown the root has data-line="on": the move list, the score sheet and the URL stay the deal's.
 *
 * The URL says what is shown and follows the navigation: ?frame=20 (or #t5: the first card of trick 5;
 * #frame-20 as older links wrote it) and ?seat=S (only S's hand face up, like a kibitzer).
 */
(function (global) {
  "use strict";
  var WORDS = global.TuteCards;  /* seats, suits and cards in the page's language (cards.js, the library's words) */
  var GLYPH_WORDS = { "!": t("good"), "?": t("mistake"), "!!": t("very good"), "??": t("blunder"),
                      "!?": t("interesting"), "?!": t("dubious") };  // docs/notation.md, 4.3

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
  /* A card in a sentence: in words where the language says them ("el 7 de bastos"), else its code, suit coloured. */
  function cardText(code) {
    var words = WORDS.cardWords(code);
    return words === code ? notation(code) : esc(words);
  }
  function isPlay(f) { return /^\S+ (1[0-2]|[1-7])[OCEB]$/.test(f.text); }
  function isLead(f) { return isPlay(f) && !f.skipped && f.table.length === 1; }
  function sum(values) { return values.reduce(function (a, b) { return a + b; }, 0); }

  /* The record's annotations on an event, after its notation: "!" (good), "? $14"; said in words too (spoken)
   * where there is room for them, the frame's note: "4O?! (dubious)". */
  function annotationHTML(f, spoken) {
    if (!f.annotation) return "";
    var word = GLYPH_WORDS[f.annotation.split(" ")[0]];
    return '<span class="annotation"' + (word ? ' title="' + esc(word) + '"' : "") + ">" + esc(f.annotation) + "</span>" +
      (word && spoken ? ' <span class="annotation-word">(' + esc(word) + ")</span>" : "");
  }

  /* A comment's embedded commands (PGN's [%cmd ...], as `tute analyse --annotate` writes them: [%dd 71]
   * [%best 1O 12O] [%win 0.63], and [%pimc 64.5] of the first version) in words; a command this page does not know
   * is left out, never shown raw. */
  function commandWords(name, value) {
    if (name === "dd") return t("with every hand visible (a cartas vistas): {points} points", { points: value });
    if (name === "best") return t("best: {cards}", { cards: value.split(" ").map(WORDS.cardWords).join(", ") });
    if (name === "pimc") return t("from what the player could know: {points} points", { points: value });
    if (name === "win" && /^[\d.]+$/.test(value)) {
      return t("chance of winning the deal after it: {percent}%", { percent: Math.round(100 * parseFloat(value)) });
    }
    return "";
  }

  /* The record's comments on the frame's event (on the first frame: its comments on the deal), commands in words. */
  function commentsHTML(f) {
    return f.comments.map(function (c) {
      var words = [];
      var text = c.replace(/\[%(\w+)\s*([^\]]*)\]/g, function (whole, name, value) {
        var said = commandWords(name, value.trim());
        if (said) words.push(said);
        return "";
      }).replace(/\s+/g, " ").trim();
      if (text) words.unshift(text);
      return words.length ? '<q class="comment">' + notation(words.join(" · ")) + "</q>" : "";
    }).join(" ");
  }

  /* The frame a URL asks for: ?frame=N, #t5 (trick 5's first card), #frame-N; else the first. */
  function frameFromURL(frames) {
    var q = new URLSearchParams(location.search).get("frame");
    if (q !== null && /^\d+$/.test(q)) return parseInt(q, 10);
    var m = /^#frame-(\d+)$/.exec(location.hash);
    if (m) return parseInt(m[1], 10);
    m = /^#t(\d+)$/.exec(location.hash);
    if (m) {
      var trick = parseInt(m[1], 10);
      for (var i = 1; i < frames.length; i++) {
        if (isLead(frames[i]) && frames[i].trick_no === trick) return i;
      }
    }
    return 0;
  }

  function mount(root) {
    var frames = JSON.parse(root.dataset.frames || "[]");
    var sheetTotals = JSON.parse(root.dataset.sheetTotals || "null");
    var lastTen = JSON.parse(root.dataset.lastTen || "null");
    if (!frames.length) return null;
    var last = frames.length - 1;
    var cur = -1;
    var lo = 0;        // the first frame one may step back to (a line shown: the frame it starts from)
    var kept = null;   // while a line is shown: the deal's frames and the frame shown before it
    var viewer = "";   // the seat whose view is shown ("": every hand face up)
    var timer = null;
    var $ = function (sel) { return root.querySelector(sel); };
    function on(sel, type, fn) { var el = $(sel); if (el) el.addEventListener(type, fn); }

    /* -- The move list ------------------------------------------------------------ */
    var moves = $("#moves");
    var items = [];
    if (moves) {
      var html = '<li><button type="button" data-index="0" class="move start">' + esc(t("start")) + "</button></li>";
      for (var i = 1; i <= last; i++) {
        var f = frames[i], cls = "move";
        var label = notation(f.text) + annotationHTML(f);
        if (isLead(f)) label = '<span class="trick-num">' + f.trick_no + ".</span> " + label;
        if (!isPlay(f)) cls += " decl";
        if (f.illegal) cls += " illegal";
        var title = f.illegal ? ' title="' + esc(f.illegal + " [" + f.rule + "]") + '"' : "";
        html += '<li><button type="button" data-index="' + i + '" class="' + cls + '"' + title + ">" + label +
                (f.comments.length ? ' <span class="has-comment" aria-label="' + esc(t("commented")) + '">✎</span>' : "") +
                (f.illegal ? ' <span class="flag" aria-label="' + esc(t("illegal")) + '">⚠</span>' : "") + "</button></li>";
      }
      moves.innerHTML = html;
      items = Array.prototype.slice.call(moves.querySelectorAll("button[data-index]"));
      moves.addEventListener("click", function (ev) {
        var b = ev.target.closest("button[data-index]");
        if (b) { stop(); show(parseInt(b.dataset.index, 10)); }
      });
    }

    /* -- Drawing one frame ------------------------------------------------------------ */
    function cardsHTML(codes, hidden) {
      if (!codes.length) return '<span class="empty">' + esc(t("no cards")) + "</span>";
      return codes.map(function (c) {
        return '<span class="c">' + (hidden || c === "?" ? backSVG() : cardSVG(c)) + "</span>";
      }).join("");
    }

    function noteFor(i) {
      var f = frames[i], prev = frames[i - 1], parts = [];
      if (i === 0) {
        parts.push(esc(f.to_move ? t("The deal as dealt. {seat} leads.", { seat: WORDS.seatWords(f.to_move) }) : t("The deal as dealt.")));
        return parts;
      }
      var seat = esc(WORDS.seatWords(seatOf(f.text)));
      if (f.illegal) {
        parts.push('<span class="illegal">' + esc(t("Illegal: {reason}", { reason: f.illegal })) + " <code>" +
                   esc(f.rule || "") + "</code> — " + esc(f.skipped ? t("the event is skipped") : t("played as written")) +
                   "</span>");
      }
      if (f.cantes.length > prev.cantes.length) {
        var gain = sum(f.cante_points) - sum(prev.cante_points);
        var m = /(20|40)([OCEB])?$/.exec(f.text);
        var what = m && m[1] === "40" ? t("{seat} sings las cuarenta (40 in trump, {suit})", { seat: seat, suit: WORDS.suitWords(f.trump) })
                                      : t("{seat} sings 20 in {suit}", { seat: seat, suit: m && m[2] ? WORDS.suitWords(m[2]) : "" });
        parts.push('<span class="cante">' + what + (gain ? " (+" + gain + ")" : "") + "</span>");
      }
      if (f.exchanges.length > prev.exchanges.length) {
        parts.push('<span class="exchange">' + t("{seat} exchanges {card} for the muestra {turned}", {
          seat: seat, card: cardText(f.text.replace(/^\S+ x/, "")), turned: cardText(prev.turned) }) + "</span>");
      }
      if (/ tute /.test(f.text)) {
        parts.push('<span class="cante">' + (/12$/.test(f.text) ? t("{seat} announces tute of reyes", { seat: seat })
                                                              : t("{seat} announces tute of caballos", { seat: seat })) + "</span>");
      }
      if (f.winner) {
        parts.push(t("{seat} wins trick {n} (+{points})", { seat: esc(WORDS.seatWords(f.winner)), n: f.trick_no, points: f.trick_points }));
        if (f.over && lastTen) parts.push('<span class="ten">' + t("and the last-trick ten: +{points}", { points: lastTen }) + "</span>");
      }
      if (!parts.length && isPlay(f)) parts.push(t("{seat} plays {card}", { seat: seat, card: cardText(f.text.split(" ")[1]) }));
      if (f.over) parts.push('<b class="over">' + esc(f.result ? t("Deal over: {result}", { result: f.result }) : t("Deal over")) + "</b>");
      return parts;
    }

    function setText(sel, text) { var el = $(sel); if (el) el.textContent = text; }

    function show(i) {
      i = Math.max(lo, Math.min(last, i));
      if (i === cur) return;
      cur = i;
      draw();
    }

    function draw() {
      var i = cur, f = frames[i];
      setText("#frame-index", String(i));
      setText("#frame-count", String(last));
      root.dataset.frame = String(i);
      root.dataset.viewer = viewer;

      // Hands (another seat's face down in a seat's view), the seat to move, the trick winner.
      f.seats.forEach(function (seat, k) {
        var box = root.querySelector('.seat[data-seat="' + seat + '"]');
        if (!box) return;
        var hidden = viewer !== "" && viewer !== seat;
        box.querySelector(".hand").innerHTML = cardsHTML(f.hands[k], hidden);
        box.classList.toggle("to-move", f.to_move === seat);
        box.classList.toggle("trick-winner", f.winner === seat);
        box.classList.toggle("viewer", viewer === seat);
        var info = box.querySelector(".seat-info");
        if (info) info.textContent = tn("{n} card", "{n} cards", f.hands[k].length) + (f.to_move === seat ? " · " + t("to play") : "");
      });

      // The trick on the table: the last card played and the trick's winner marked.
      var lastPlayed = isPlay(f) && !f.skipped ? seatOf(f.text) : null;
      var trick = $("#trick");
      if (trick) {
        trick.innerHTML = f.table.map(function (pair) {
          var cls = "slot slot-" + pair[0] + (pair[0] === lastPlayed ? " last" : "") + (f.winner === pair[0] ? " win" : "");
          return '<div class="' + cls + '" data-seat="' + esc(pair[0]) + '">' + cardSVG(pair[1]) +
                 '<span class="slot-seat">' + esc(WORDS.seatWords(pair[0])) + (f.winner === pair[0] ? ' <span class="crown" title="' +
                 esc(t("wins the trick")) + '">★</span>' : "") + "</span></div>";
        }).join("");
      }
      var ten = $("#last-ten");
      if (ten) {
        var shown = !!(f.over && f.winner && lastTen);
        ten.hidden = !shown;
        ten.textContent = shown ? t("{seat}: diez de últimas +{points}", { seat: WORDS.seatWords(f.winner), points: lastTen }) : "";
      }

      // Trump, the muestra, stock, trick number.
      var trump = $("#trump");
      if (trump) trump.innerHTML = TuteCards.suitSVG(f.trump, 14) + " " + esc(WORDS.suitWords(f.trump));
      var turned = $("#turned");
      if (turned) turned.innerHTML = cardSVG(f.turned);
      if (f.stock !== null && f.stock !== undefined && $("#stock-box")) {
        $("#stock-box").hidden = false;
        setText("#stock", String(f.stock));
        $("#stock-card").innerHTML = f.stock > 0 ? backSVG() : "";
        if (turned) turned.classList.toggle("gone", f.stock === 0);
      }
      setText("#trick-no", String(f.trick_no));

      // The running score: points so far; at the last frame, the score sheet's totals.
      var values = (i === last && sheetTotals && !kept) ? sheetTotals : (f.over && f.totals) ? f.totals : f.points;
      f.sides.forEach(function (side, k) {
        var el = root.querySelector('#score [data-side="' + side + '"]');
        if (el) el.textContent = String(values[k]);
      });
      var score = $("#score");
      if (score) score.classList.toggle("final", i === last && (f.over || (!!sheetTotals && !kept)));

      // What happened, and the declarations so far.
      var note = $("#note");
      if (note) {
        note.innerHTML = noteFor(i).join(" · ") +
          (f.annotation || f.comments.length ? '<p class="record-note">' + (f.annotation ? '<span class="noted notation">' +
            notation(f.text) + annotationHTML(f, true) + "</span> " : "") + commentsHTML(f) + "</p>" : "");
        note.classList.toggle("has-illegal", !!f.illegal);
      }
      var decl = [];
      f.cantes.forEach(function (c) { decl.push('<li class="cante">' + notation(c) + "</li>"); });
      f.exchanges.forEach(function (x) { decl.push('<li class="exchange">' + notation(x) + "</li>"); });
      var declarations = $("#declarations");
      if (declarations) {
        declarations.innerHTML = decl.length ? "<h2>" + esc(t("Cantes and exchanges")) + "</h2><ul>" + decl.join("") + "</ul>" : "";
      }

      // The position string of this moment, and its link.
      var pos = $("#position");
      if (pos) {
        pos.textContent = f.position || "";
        var link = $("#position-link");
        if (link) {
          link.hidden = !f.position;
          link.href = "/view?" + new URLSearchParams({ p: f.position || "" }).toString();
        }
      }

      // The move list and the buttons.
      items.forEach(function (b) {
        var here = !kept && parseInt(b.dataset.index, 10) === i;
        b.classList.toggle("current", here);
        if (here) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
      });
      var active = kept ? null : items[i];
      if (active && moves) {
        var li = active.parentNode, top = li.offsetTop - moves.offsetTop;
        if (top < moves.scrollTop || top + li.offsetHeight > moves.scrollTop + moves.clientHeight) {
          moves.scrollTop = Math.max(0, top - moves.clientHeight / 2);
        }
      }
      ["#first", "#prev"].forEach(function (s) { var b = $(s); if (b) b.disabled = i === lo; });
      ["#next", "#last"].forEach(function (s) { var b = $(s); if (b) b.disabled = i === last; });
      var sheet = $("#final-sheet");
      if (sheet) sheet.hidden = i !== last || !!kept;
      followURL();
      root.dispatchEvent(new CustomEvent("tute:frame", { detail: i }));  // analysis.js follows the frame
    }

    /* The URL follows: ?frame=N&seat=S beside the page's own parameters (a shared deal's d=). */
    function followURL() {
      if (!history.replaceState || root !== document.getElementById("replay") || kept) return;
      var params = new URLSearchParams(location.search);
      params.set("frame", String(cur));
      if (viewer) params.set("seat", viewer); else params.delete("seat");
      history.replaceState(null, "", location.pathname + "?" + params.toString());
    }

    /* -- Autoplay ---------------------------------------------------------------------- */
    var playButton = $("#play"), speed = $("#speed");
    function delay() { return speed ? parseInt(speed.value, 10) : 1000; }
    function playing(state) {
      root.dataset.playing = state ? "true" : "false";
      if (!playButton) return;
      playButton.setAttribute("aria-pressed", state ? "true" : "false");
      playButton.setAttribute("aria-label", state ? playButton.dataset.pause : playButton.dataset.play);
      playButton.classList.toggle("on", state);
    }
    function tick() {
      if (cur >= last) { stop(); return; }
      show(cur + 1);
      timer = setTimeout(tick, delay());
    }
    function start() {
      if (timer !== null || last === 0) return;
      if (cur >= last) show(0);
      playing(true);
      timer = setTimeout(tick, delay());
    }
    function stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      playing(false);
    }
    if (playButton) playButton.addEventListener("click", function () { if (timer === null) start(); else stop(); });
    if (speed) speed.addEventListener("change", function () { if (timer !== null) { stop(); start(); } });

    /* -- A seat's view ------------------------------------------------------------------- */
    var seatChoice = $("#view-seat");
    function view(seat) {
      viewer = frames[0].seats.indexOf(seat) >= 0 ? seat : "";
      if (seatChoice) seatChoice.value = viewer;
      if (cur >= 0) draw();
    }
    if (seatChoice) seatChoice.addEventListener("change", function () { view(seatChoice.value); });

    /* -- Controls ------------------------------------------------------------------- */
    on("#first", "click", function () { stop(); show(lo); });
    on("#prev", "click", function () { stop(); show(cur - 1); });
    on("#next", "click", function () { stop(); show(cur + 1); });
    on("#last", "click", function () { stop(); show(last); });
    document.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.defaultPrevented) return;
      var target = ev.target;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (ev.key === " " && !(target && /^(BUTTON|A)$/.test(target.tagName))) {
        ev.preventDefault();
        if (timer === null) start(); else stop();
        return;
      }
      var to = { ArrowRight: cur + 1, ArrowLeft: cur - 1, Home: lo, End: last }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      stop();
      show(to);
    });
    root.addEventListener("tute:show", function (ev) { stop(); show(ev.detail); });  // analysis.js's graph asks

    /* -- Another line on the same board (analysis.js's best line), then back to the deal ---------------- */
    function redraw(i) { cur = -1; show(i); }
    root.addEventListener("tute:line", function (ev) {
      stop();
      if (!kept) kept = { frames: frames, last: last, cur: cur };
      frames = ev.detail.frames;
      last = frames.length - 1;
      lo = Math.max(0, Math.min(last, ev.detail.from));
      root.dataset.line = "on";
      redraw(lo);
    });
    root.addEventListener("tute:leave", function () {
      if (!kept) return;
      stop();
      frames = kept.frames;
      last = kept.last;
      lo = 0;
      var back = kept.cur;
      kept = null;
      delete root.dataset.line;
      redraw(back);
    });

    view(new URLSearchParams(location.search).get("seat") || "");
    show(frameFromURL(frames));
    return { show: show, view: view, play: start, pause: stop };
  }

  global.TuteReplay = { mount: mount };
  var first = document.getElementById("replay");
  if (first) mount(first);
})(window);
