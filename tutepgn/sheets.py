"""Score sheets and validation reports as text: rich renderables built from a report's JSON model.

Both ``tute validate --explain`` and ``tute simulate --sheet`` print through
here, from :class:`~tutepgn.report.ReportModel` (what
:meth:`tutepgn.validate.Report.to_dict` dumps), so the text and the JSON
always say the same thing.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .report import ReportModel

_SEVERITY_STYLE = {"error": "red", "warning": "yellow", "info": "cyan"}


def where(report: ReportModel) -> str:
    """``file:line (record N)`` for a report."""
    return f"{report.source or '<stdin>'}:{report.line} (record {report.record + 1})"


def findings_text(report: ReportModel, *, info: bool = True) -> RenderableType:
    """One line per finding: severity, location, message, rule and option (``info=False``: no notes)."""
    lines = Text()
    for f in report.findings:
        if f.severity == "info" and not info:
            continue
        loc = f"{report.source or '<stdin>'}:{f.line or report.line}"
        if f.column:
            loc += f":{f.column}"
        lines.append(f"{loc}: ", style="bold")
        lines.append(f"{f.severity}", style=_SEVERITY_STYLE[f.severity])
        trick = f" trick {f.trick}" if f.trick else ""
        lines.append(f"{trick}: {f.message} [{f.code}{' / option ' + f.option if f.option else ''}]\n")
    for line in report.explanation:
        lines.append(f"  {line}\n", style="italic")
    return lines


def score_sheet(report: ReportModel) -> RenderableType:
    """The full score sheet: trick by trick, cantes (accepted and refused), totals, result, match."""
    sheet = report.sheet
    sides = report.sides
    if sheet is None:
        return Text(f"{where(report)}: no score sheet (the deal could not be replayed)")
    tricks = Table(title=f"{where(report)}  {report.rules}", title_justify="left")
    for col in ("trick", "leader", "cards", "winner", "points"):
        tricks.add_column(col, justify="right" if col in ("trick", "points") else "left")
    for i, t in enumerate(sheet.tricks, 1):
        tricks.add_row(str(i), t.leader, " ".join(t.cards), t.winner, str(t.points))
    parts: list[RenderableType] = [tricks]
    if sheet.cantes or report.refused_cantes or report.exchanges:
        cantes = Table(title="Declarations", title_justify="left")
        for col in ("seat", "suit", "value", "verdict"):
            cantes.add_column(col)
        for c in sheet.cantes:
            cantes.add_row(c.seat, c.suit, str(c.points), "accepted")
        for r in report.refused_cantes:
            cantes.add_row(r.seat, r.suit, str(r.points), Text(f"refused: {r.reason}", style="red"))
        for x in report.exchanges:
            cantes.add_row(x.seat, x.card[-1], "", f"exchanged {x.card} for the turned card "
                           f"after trick {x.after_trick}" if x.after_trick else
                           f"exchanged {x.card} for the turned card before the first lead")
        parts.append(cantes)
    totals = Table(title="Count", title_justify="left")
    totals.add_column("")
    for label in sides:
        totals.add_column(label, justify="right")
    last = sheet.last_trick_side
    totals.add_row("card points", *map(str, sheet.card_points))
    totals.add_row("last ten", *[str(sheet.last_trick_bonus if last == k else 0) for k in range(len(sides))])
    totals.add_row("cantes", *[str(sum(c.points for c in sheet.cantes if c.side == k)) for k in range(len(sides))])
    totals.add_row("total", *map(str, sheet.totals), style="bold")
    if report.claimed_score is not None:
        totals.add_row("claimed", *map(str, report.claimed_score), style="green" if report.score_ok else "red")
    totals.add_row("match points", *map(str, sheet.match_points))
    if report.standing_after is not None:
        totals.add_row("match standing", *map(str, report.standing_after))
    parts.append(totals)
    parts.append(Text(result_sentence(report)))
    return Group(*parts)


def result_sentence(report: ReportModel) -> str:
    """The deal's outcome in a sentence: winner, tie-break, double, tute (the report must have its sheet)."""
    sheet = report.sheet
    assert sheet is not None, "a report without its score sheet has no result to tell"
    sides = report.sides
    if sheet.winner is None:
        return "Unfinished: no winner yet."
    words = [f"{sides[sheet.winner]} wins the deal"]
    if sheet.tute:
        rank = "reyes" if sheet.tute.rank == 12 else "caballos"
        words.append(f"by a tute of {rank} ({sheet.tute.seat})")
    if sheet.tie_break:
        words.append("on a tie, as the side that won the last trick")
    if sheet.doubled:
        words.append("with a double")
    if sheet.wins_match:
        words.append("and the match")
    else:
        words.append(f"for {sheet.match_points[sheet.winner]} match point(s)")
    claimed = report.claimed_result
    verdict = "" if claimed is None else (" The Result tag agrees." if report.result_ok
                                          else f" The Result tag says {claimed}.")
    return " ".join(words) + f": {report.computed_result}." + verdict
