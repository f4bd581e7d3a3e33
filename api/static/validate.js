/* The validation page: post the pasted records to /api/v1/validate, show the summary and each
 * record's findings, and the text with line numbers, the offending lines marked with their messages.
 * Each record is reported on its own: a syntax error is a finding of its record (code "syntax", also
 * in its parse_errors); a 422 problem means the text holds no record at all.
 */
(function () {
  "use strict";
  var textarea = document.getElementById("text");
  var button = document.getElementById("go");
  var status = document.getElementById("status");
  var report = document.getElementById("report");
  var listing = document.getElementById("listing");
  if (!textarea || !button) return;

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
                '><span class="no">' + no + '</span><span class="src">' + (esc(line) || " ") + "</span>");
      here.forEach(function (m) {
        var caret = m.column ? '<span class="caret">col ' + m.column + ":</span> " : "";
        html.push('<span class="msg sev-' + esc(m.severity) + '">' + caret + esc(m.message) + "</span>");
      });
      html.push("</div>");
    });
    extra.forEach(function (no) {
      html.push('<div class="ln bad" data-line="' + no + '"><span class="no">' + no + '</span><span class="src"> </span>');
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

  function showSyntax(problem, text) {
    var errors = problem.errors || [];
    var marks = {};
    var items = errors.map(function (e) {
      var msg = e.message + (e.text ? " — found " + JSON.stringify(e.text) : "") + (e.expected ? "; expected " + e.expected : "");
      mark(marks, e.line, "error", msg, e.column);
      return '<li><a href="#line-' + esc(e.line) + '">line ' + esc(e.line) + (e.column ? ":" + esc(e.column) : "") + "</a>: " +
             esc(msg) + "</li>";
    });
    report.innerHTML = '<p class="summary bad">Cannot read the text: ' + errors.length + " syntax error" +
      (errors.length === 1 ? "" : "s") + ".</p>" + (items.length ? '<div class="report-card"><ul>' + items.join("") + "</ul></div>"
      : '<p class="error">' + esc(problem.detail || problem.title) + "</p>");
    showListing(text, marks);
  }

  function showReports(data, text) {
    var s = data.summary, marks = {};
    var html = ['<p class="summary ' + (s.invalid ? "bad" : "ok") + '" id="summary">' + s.records + " record" +
                (s.records === 1 ? "" : "s") + ": " + s.valid + " valid, " + s.invalid + " invalid" +
                (s.score_mismatches ? ", " + s.score_mismatches + " score mismatch" + (s.score_mismatches === 1 ? "" : "es") : "") +
                (s.result_mismatches ? ", " + s.result_mismatches + " result mismatch" + (s.result_mismatches === 1 ? "" : "es") : "") +
                ".</p>"];
    data.reports.forEach(function (r) {
      var findings = (r.findings || []).map(function (f) {
        mark(marks, f.line || null, f.severity, f.message + " [" + f.code + (f.option ? " / option " + f.option : "") + "]", f.column);
        var where = f.line ? '<a href="#line-' + f.line + '">line ' + f.line + (f.column ? ":" + f.column : "") + "</a>" : "record";
        return '<li class="finding sev-' + esc(f.severity) + '"><span class="sev">' + esc(f.severity) + "</span> " + where +
               (f.trick ? ", trick " + f.trick : "") + ": " + esc(f.message) + " <code>" + esc(f.code) + "</code>" +
               (f.option ? " (option <code>" + esc(f.option) + "</code>)" : "") + "</li>";
      });
      var explanation = (r.explanation || []).map(function (line) { return '<p class="explanation">' + esc(line) + "</p>"; });
      html.push('<div class="report-card" data-record="' + r.record + '"><h3>Record ' + (r.record + 1) + " <small class=\"muted\">line " +
        r.line + (r.rules ? " · " + esc(r.rules) : "") + "</small> " +
        (r.valid ? '<span class="badge ok">valid</span>' : '<span class="badge bad-badge">invalid</span>') + "</h3>" +
        "<p>Score: counted <b>" + esc(sides(r.computed_score, r.sides)) + "</b>" +
        (r.claimed_score ? ", claimed " + '<span class="' + (r.score_ok ? "ok" : "mismatch") + '">' + esc(sides(r.claimed_score, r.sides)) + "</span>" : "") +
        " · Result: <b>" + esc(r.computed_result || "—") + "</b>" +
        (r.claimed_result ? ", claimed " + '<span class="' + (r.result_ok ? "ok" : "mismatch") + '">' + esc(r.claimed_result) + "</span>" : "") +
        "</p>" + (findings.length ? "<ul>" + findings.join("") + "</ul>" : '<p class="ok">No findings.</p>') + explanation.join("") +
        "</div>");
    });
    report.innerHTML = html.join("");
    showListing(text, marks);
  }

  function run() {
    var text = textarea.value;
    if (!text.trim()) {
      report.innerHTML = '<p class="error">Paste a record first.</p>';
      listing.hidden = true;
      return;
    }
    button.disabled = true;
    status.textContent = "Validating…";
    fetch("/api/v1/validate", { method: "POST", headers: { "Content-Type": "text/plain; charset=utf-8" }, body: text })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (body) {
          if (response.ok) showReports(body, text);
          else if (response.status === 422 && body.errors) showSyntax(body, text);
          else {
            report.innerHTML = '<p class="error">' + esc(body.title || "Error") + ": " + esc(body.detail || response.statusText) + "</p>";
            listing.hidden = true;
          }
        });
      })
      .catch(function (err) {
        report.innerHTML = '<p class="error">The request failed: ' + esc(err.message || err) + "</p>";
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
