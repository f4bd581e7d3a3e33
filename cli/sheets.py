"""Score sheets and validation reports as text: rich renderables built from a report's JSON model.

Both ``tute validate --explain`` and ``tute simulate --sheet`` print through
here, from :class:`~tutepgn.check.report.ReportModel` (what
:meth:`tutepgn.check.validate.Report.to_dict` dumps), so the text and the JSON
always say the same thing.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tutepgn.i18n import N_, gettext as _
from tutepgn.check.report import result_sentence
from tutepgn.check.report_model import ReportModel

_SEVERITY_STYLE = {"error": "red", "warning": "yellow", "info": "cyan"}
SEVERITY_WORDS = {"error": N_("error"), "warning": N_("warning"), "info": N_("info")}
"""A finding's severity in words (the JSON keeps the code)."""


def where(report: ReportModel) -> str:
    """``file:line (record N)`` for a report."""
    return _("{source}:{line} (record {record})", source=report.source or "<stdin>", line=report.line,
             record=report.record + 1)


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
        lines.append(_(SEVERITY_WORDS[f.severity]), style=_SEVERITY_STYLE[f.severity])
        trick = _(" trick {trick}", trick=f.trick) if f.trick else ""
        rule = _("{code} / option {option}", code=f.code, option=f.option) if f.option else f.code
        lines.append(f"{trick}: {f.message} [{rule}]\n")
    for line in report.explanation:
        lines.append(f"  {line}\n", style="italic")
    return lines


def score_sheet(report: ReportModel) -> RenderableType:
    """The full score sheet: trick by trick, cantes (accepted and refused), totals, result, match."""
    sheet = report.sheet
    sides = report.sides
    if sheet is None:
        return Text(_("{where}: no score sheet (the deal could not be replayed)", where=where(report)))
    tricks = Table(title=f"{where(report)}  {report.rules}", title_justify="left")
    for col in (N_("trick"), N_("leader"), N_("cards"), N_("winner"), N_("points")):
        tricks.add_column(_(col), justify="right" if col in ("trick", "points") else "left")
    for i, t in enumerate(sheet.tricks, 1):
        tricks.add_row(str(i), t.leader, " ".join(t.cards), t.winner, str(t.points))
    parts: list[RenderableType] = [tricks]
    if sheet.cantes or report.refused_cantes or report.exchanges:
        cantes = Table(title=_("Declarations"), title_justify="left")
        for col in (N_("seat"), N_("suit"), N_("value"), N_("verdict")):
            cantes.add_column(_(col))
        for c in sheet.cantes:
            cantes.add_row(c.seat, c.suit, str(c.points), _("accepted"))
        for r in report.refused_cantes:
            cantes.add_row(r.seat, r.suit, str(r.points), Text(_("refused: {rule}", rule=r.reason), style="red"))
        for x in report.exchanges:
            cantes.add_row(x.seat, x.card[-1], "", _("exchanged {card} for the turned card after trick {trick}",
                                                     card=x.card, trick=x.after_trick) if x.after_trick else
                           _("exchanged {card} for the turned card before the first lead", card=x.card))
        parts.append(cantes)
    totals = Table(title=_("Count"), title_justify="left")
    totals.add_column("")
    for label in sides:
        totals.add_column(label, justify="right")
    last = sheet.last_trick_side
    totals.add_row(_("card points"), *map(str, sheet.card_points))
    totals.add_row(_("last ten"), *[str(sheet.last_trick_bonus if last == k else 0) for k in range(len(sides))])
    totals.add_row(_("cantes"), *[str(sum(c.points for c in sheet.cantes if c.side == k)) for k in range(len(sides))])
    totals.add_row(_("total"), *map(str, sheet.totals), style="bold")
    if report.claimed_score is not None:
        totals.add_row(_("claimed"), *map(str, report.claimed_score), style="green" if report.score_ok else "red")
    totals.add_row(_("match points"), *map(str, sheet.match_points))
    if report.standing_after is not None:
        totals.add_row(_("match standing"), *map(str, report.standing_after))
    parts.append(totals)
    parts.append(Text(result_sentence(report)))
    return Group(*parts)
