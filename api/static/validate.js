/* The validation page: post the pasted records to /api/v1/replay, show the summary and each record's findings,
 * the text with line numbers (the offending lines marked with their messages), and a record on the table: the
 * deal page's board (replay.js, handed the frames as deal.html hands them), each finding linked to its frame.
 * Each record is reported on its own: a syntax error is a finding of its record (code "syntax", also in its
 * parse_errors), and such a record has no board while the others have theirs; a 422 problem means the text
 * holds no record at all.
 */
(function () {
  "use strict";
  var textarea = document.getElementById("text");
  var button = document.getElementById("go");
  var status = document.getElementById("status");
  var report = document.getElementById("report");
  var listing = document.getElementById("listing");
  var area = document.getElementById("board-area");
  var slot = document.getElementById("board-slot");
  var picker = document.getElementById("board-records");
  var boardError = document.getElementById("board-error");
  var template = document.getElementById("board-template");
  if (!textarea || !button) return;
  var boards = [];
  var SEVERITY = { error: t("error"), warning: t("warning"), info: t("info") };
  var onTable = null;  // the record whose board is shown

  function esc(text) {
    return String(text == null ? "" : text).replace(/[&<>"']/g, function (ch) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch];
    });
  }

  function sides(values, labels) {
    if (!values) return "—";
    return values.map(function (v, k) { return (labels && labels[k] ? labels[k] + " " : "") + v; }).join(" · ");
  }

  /* marks: line number -> [{severity, message, column}] */
  function showListing(text, marks) {
    var lines = text.replace(/\r\n?/g, "\n").split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    var html = [];
    var extra = Object.keys(marks).map(Number).filter(function (n) { return n > lines.length; });
    lines.forEach(function (line, k) {
      var no = k + 1, here = marks[no] || [];
      var worst = here.some(function (m) { return m.severity === "error"; }) ? "bad" : here.length ? "warn" : "";
      html.push('<div class="ln' + (worst ? " " + worst : "") + '" data-line="' + no + '"' + (worst ? ' id="line-' + no + '"' : "") +
                '><span class="no">' + no + '</span><span class="src notation">' + (esc(line) || " ") + "</span>");
      here.forEach(function (m) {
        var caret = m.column ? '<span class="caret">' + esc(t("col {column}:", { column: m.column })) + "</span> " : "";
        html.push('<span class="msg sev-' + esc(m.severity) + '">' + caret + esc(m.message) + "</span>");
      });
      html.push("</div>");
    });
    extra.forEach(function (no) {
      html.push('<div class="ln bad" data-line="' + no + '"><span class="no">' + no + '</span><span class="src notation"> </span>');
      marks[no].forEach(function (m) { html.push('<span class="msg sev-error">' + esc(m.message) + "</span>"); });
      html.push("</div>");
    });
    listing.innerHTML = html.join("");
    listing.hidden = false;
  }

  function mark(marks, line, severity, message, column) {
    if (!line) return;
    (marks[line] = marks[line] || []).push({ severity: severity, message: message, column: column });
  }

  function where(line, column) {
    return column ? t("line {line}:{column}", { line: line, column: column }) : t("line {line}", { line: line });
  }

  function showSyntax(problem, text) {
    var errors = problem.errors || [];
    var marks = {};
    var items = errors.map(function (e) {
      var msg = e.message + (e.text ? " — " + t("found {text}", { text: JSON.stringify(e.text) }) : "") +
                (e.expected ? "; " + t("expected {what}", { what: e.expected }) : "");
      mark(marks, e.line, "error", msg, e.column);
      return '<li><a href="#line-' + esc(e.line) + '">' + esc(where(e.line, e.column)) + "</a>: " + esc(msg) + "</li>";
    });
    report.innerHTML = '<p class="summary bad">' + esc(tn("Cannot read the text: {n} syntax error.",
      "Cannot read the text: {n} syntax errors.", errors.length)) + "</p>" +
      (items.length ? '<div class="report-card"><ul>' + items.join("") + "</ul></div>"
                    : '<p class="error">' + esc(problem.detail || problem.title) + "</p>");
    showListing(text, marks);
    hideBoard();
  }

  function summaryLine(s) {
    var parts = [tn("{n} record", "{n} records", s.records) + ": " +
                 t("{valid} valid, {invalid} invalid", { valid: s.valid, invalid: s.invalid })];
    if (s.score_mismatches) parts.push(tn("{n} score mismatch", "{n} score mismatches", s.score_mismatches));
    if (s.result_mismatches) parts.push(tn("{n} result mismatch", "{n} result mismatches", s.result_mismatches));
    return parts.join(", ") + ".";
  }

  function findingHTML(f, record, frame) {
    var at = f.line ? '<a href="#line-' + f.line + '">' + esc(where(f.line, f.column)) + "</a>" : esc(t("record"));
    var link = frame === null || frame === undefined ? "" :
      ' <a href="#board-area" class="to-frame" data-record="' + record + '" data-frame="' + frame + '">' +
      esc(t("show on the table")) + "</a>";
    return '<li class="finding sev-' + esc(f.severity) + '"><span class="sev">' + esc(SEVERITY[f.severity] || f.severity) + "</span> " + at +
           (f.trick ? ", " + esc(t("trick {n}", { n: f.trick })) : "") + ": " + esc(f.message) + " <code>" + esc(f.code) +
           "</code>" + (f.option ? " (" + esc(t("option")) + " <code>" + esc(f.option) + "</code>)" : "") + link + "</li>";
  }

  function showReports(data, text) {
    var s = data.summary, marks = {};
    boards = data.boards || [];
    var html = ['<p class="summary ' + (s.invalid ? "bad" : "ok") + '" id="summary">' + esc(summaryLine(s)) + "</p>"];
    data.reports.forEach(function (r, k) {
      var frames = (boards[k] || {}).findings || [];
      var findings = (r.findings || []).map(function (f, j) {
        mark(marks, f.line || null, f.severity, f.message + " [" + f.code + (f.option ? " / " + t("option") + " " + f.option : "") + "]", f.column);
        return findingHTML(f, k, frames[j]);
      });
      var explanation = (r.explanation || []).map(function (line) { return '<p class="explanation">' + esc(line) + "</p>"; });
      var counted = t("Score: counted {score}", { score: sides(r.computed_score, r.sides) }) +
        (r.claimed_score ? ", " + t("claimed {score}", { score: sides(r.claimed_score, r.sides) }) : "") + " · " +
        t("Result: {result}", { result: r.computed_result || "—" }) +
        (r.claimed_result ? ", " + t("claimed {result}", { result: r.claimed_result }) : "");
      html.push('<div class="report-card" data-record="' + r.record + '"><h3>' + esc(t("Record {n}", { n: r.record + 1 })) +
        ' <small class="muted">' + esc(t("line {line}", { line: r.line })) + (r.rules ? " · " + esc(r.rules) : "") + "</small> " +
        (r.valid ? '<span class="badge ok">' + esc(t("valid")) + "</span>" : '<span class="badge bad-badge">' + esc(t("invalid")) + "</span>") +
        "</h3><p" + (r.score_ok === false || r.result_ok === false ? ' class="mismatch"' : "") + ">" + esc(counted) + "</p>" +
        (findings.length ? "<ul>" + findings.join("") + "</ul>" : '<p class="ok">' + esc(t("No findings.")) + "</p>") +
        explanation.join("") + "</div>");
    });
    report.innerHTML = html.join("");
    showListing(text, marks);
    onTable = null;  // new records: every board is built afresh
    showPicker();
    var first = boards.findIndex(function (b) { return b.frames.length; });
    showBoard(first < 0 ? 0 : first, 0);
  }

  /* -- The table ------------------------------------------------------------------ */
  function hideBoard() {
    area.hidden = true;
    slot.innerHTML = "";
    onTable = null;
  }

  function showPicker() {
    picker.innerHTML = boards.length < 2 ? "" : boards.map(function (b, k) {
      return '<button type="button" data-record="' + k + '"' + (b.frames.length ? "" : " disabled") + ">" +
             esc(t("Record {n}", { n: k + 1 })) + "</button>";
    }).join(" ");
  }

  /* Build the board of record k from the template and hand it to replay.js, which draws frame 0. */
  function buildBoard(k) {
    var b = boards[k];
    slot.innerHTML = "";
    onTable = k;
    Array.prototype.forEach.call(picker.querySelectorAll("button"), function (el) {
      el.setAttribute("aria-pressed", String(Number(el.dataset.record) === k));
    });
    boardError.hidden = !b.error;
    boardError.textContent = b.error ? t("Record {n} is not on the table: {why}", { n: k + 1, why: b.error }) : "";
    if (!b.frames.length) return false;
    var root = template.content.firstElementChild.cloneNode(true);
    var first = b.frames[0];
    root.dataset.frames = JSON.stringify(b.frames);
    root.querySelector("#frame-count").textContent = String(b.frames.length - 1);
    root.querySelector("#score").innerHTML = first.sides.map(function (side) {
      return '<span class="side-score"><span class="side-label">' + esc(side) + '</span> <b data-side="' + esc(side) + '">0</b></span>';
    }).join("");
    var board = root.querySelector("#board");
    board.classList.add("players-" + first.seats.length);
    board.innerHTML = first.seats.map(function (seat) {
      return '<section class="seat seat-' + esc(seat) + '" data-seat="' + esc(seat) + '"><div class="seat-label"><b>' +
             esc(seat) + "</b> " + esc(b.seats[seat] || "") + ' <span class="seat-info"></span></div><div class="hand" data-seat="' +
             esc(seat) + '"></div></section>';
    }).join("") + '<div class="center"><div id="trick" class="trick"></div></div>';
    slot.appendChild(root);
    var script = document.createElement("script");  // replay.js starts on the #replay it finds, as on a deal page
    script.src = "/static/replay.js";
    script.dataset.record = String(k);
    return script;
  }

  function go(frame) {
    var root = document.getElementById("replay");
    if (root) root.dispatchEvent(new CustomEvent("tute:show", { detail: frame }));  // replay.js's own hook
  }

  function showBoard(k, frame) {
    if (!boards[k]) { hideBoard(); return; }
    area.hidden = false;
    if (onTable === k) { go(frame); return; }
    var script = buildBoard(k);
    if (!script) return;
    script.onload = function () { go(frame); };
    document.body.appendChild(script);
  }

  picker.addEventListener("click", function (ev) {
    var b = ev.target.closest("button[data-record]");
    if (b) showBoard(Number(b.dataset.record), 0);
  });
  report.addEventListener("click", function (ev) {
    var a = ev.target.closest("a.to-frame");
    if (!a) return;
    ev.preventDefault();
    showBoard(Number(a.dataset.record), Number(a.dataset.frame));
    area.scrollIntoView({ block: "start" });
  });

  function run() {
    var text = textarea.value;
    if (!text.trim()) {
      report.innerHTML = '<p class="error">' + esc(t("Paste a record first.")) + "</p>";
      listing.hidden = true;
      hideBoard();
      return;
    }
    button.disabled = true;
    status.textContent = t("Validating…");
    fetch("/api/v1/replay", { method: "POST", headers: { "Content-Type": "text/plain; charset=utf-8" }, body: text })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (body) {
          if (response.ok) showReports(body, text);
          else if (response.status === 422 && body.errors) showSyntax(body, text);
          else {
            report.innerHTML = '<p class="error">' + esc(body.title || t("Error")) + ": " + esc(body.detail || response.statusText) + "</p>";
            listing.hidden = true;
            hideBoard();
          }
        });
      })
      .catch(function (err) {
        report.innerHTML = '<p class="error">' + esc(t("The request failed: {why}", { why: err.message || err })) + "</p>";
      })
      .then(function () {
        button.disabled = false;
        status.textContent = "";
      });
  }

  button.addEventListener("click", run);
  textarea.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); run(); }
  });
})();
